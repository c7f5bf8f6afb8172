"""The table's chat: who may talk, saying a phrase or a text, the last messages, reports.

- **Who**: the players at the table — a socket that holds a seat (games.live.consumers). Spectators neither
  read nor write: chat is sent as it is said, while spectators may see the table moves late
  (``spectator_delay``), so "nice double six!" would tell them what the delay still hides; and the
  spectator edge (infra/edge/) carries the public table frames only.
- **Where**: casual and rated tables; a tournament's tables only when its organiser allows it (the
  tournament option ``chat``, off by default); never a lesson's.
- **What**: a phrase's key (chat.phrases) or a free text of at most ``bounds.CHAT_TEXT`` characters
  (whitespace runs made one space), each counted against the seat's ``CHAT_RATE_LIMIT``. Nothing of
  the game is in a message: its seat, what was said, when.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
from django import forms
from django.conf import settings
from django.db import IntegrityError, transaction

from chat.models import Message, Report
from chat.phrases import PHRASES
from games import bounds
from games.access import ratelimit
from games.engines.base import _
from games.errors import Forbidden, NotFound, ServiceError
from games.live import publish
from games.live.consumers import Speaker
from games.live.groups import seat_group
from games.models import NAME_LENGTH, Game, Seat
from games.words import names

log = logging.getLogger(__name__)

CHAT_GROUP = "chat.say"
#: Messages a page is sent when it opens (and after each reconnect).
HISTORY = 50


class ChatRateLimited(ServiceError):
    status = 429

    def __init__(self) -> None:
        super().__init__(
            "rate_limited", _("You are sending messages too fast: wait a moment, then try again.")
        )


class SayForm(forms.Form):
    """A message as a page sends it: a phrase's key, or a text (one of the two)."""

    phrase = forms.ChoiceField(choices=[("", "")] + [(key, key) for key in PHRASES], required=False)
    text = forms.CharField(max_length=bounds.CHAT_TEXT.most, required=False, strip=True)

    def clean_text(self) -> str:
        return " ".join(str(self.cleaned_data.get("text") or "").split())

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("phrase")) == bool(data.get("text")):
            raise forms.ValidationError("one of phrase and text")
        return data


def tournament_allows(game_id: int) -> bool:
    """Whether the tournament this table is played for lets its players talk (option ``chat``)."""
    from tournaments.models import MatchGame

    options = (
        MatchGame.objects.filter(game_id=game_id).values_list("match__tournament__options", flat=True).first()
    )
    return isinstance(options, dict) and options.get("chat") is True


def allowed(game: Game) -> bool:
    """Whether the players of this table may talk at all."""
    if game.kind in (Game.Kind.CASUAL, Game.Kind.RATED):
        return True
    if game.kind == Game.Kind.TOURNAMENT:
        return tournament_allows(game.pk)
    return False  # a lesson's table, a log


def _table(speaker: Speaker) -> tuple[Game, int]:
    """The speaker's table and seat, if they hold a seat there and its players may talk."""
    if speaker.seat is None:
        raise Forbidden("chat_players_only", _("Only the players at the table can read and write its chat."))
    game = Game.objects.tables().filter(pk=speaker.game_id).first()
    if game is None:
        raise NotFound("unknown_game", _("There is no such table."))
    if not allowed(game):
        raise Forbidden("chat_off", _("Chat is off at this table."))
    return game, speaker.seat


def say(speaker: Speaker, content: dict[str, Any]) -> Message:
    """Store what the seat said and send it to every seat of the table (after the commit)."""
    raw = {key: content.get(key) for key in ("phrase", "text") if content.get(key) is not None}
    if any(not isinstance(value, str) for value in raw.values()):
        raise ServiceError("bad_chat", _("Send a phrase or a text."))
    bounds.CHAT_TEXT.check(raw.get("text", ""), "text")  # too long: refused before anything is done
    form = SayForm(raw)
    if not form.is_valid():
        raise ServiceError("bad_chat", _("Send a phrase or a text."))
    game, number = _table(speaker)
    try:
        ratelimit.check_seat(speaker.seat_token, group=CHAT_GROUP, rate=settings.CHAT_RATE_LIMIT)
    except ratelimit.RateLimited:
        raise ChatRateLimited() from None
    seat = Seat.objects.filter(game=game, number=number).first()
    user = speaker.user if speaker.user is not None and speaker.user.is_authenticated else None
    with transaction.atomic():
        message = Message.objects.create(
            game=game,
            seat=number,
            author=user,
            name=names.seat_name(seat)[:NAME_LENGTH] if seat else "",
            phrase=form.cleaned_data["phrase"],
            text=form.cleaned_data["text"] if not form.cleaned_data["phrase"] else "",
        )
        transaction.on_commit(lambda: tell_seats(game, [message], history=False))
    return message


def frame(messages: list[Message], *, history: bool) -> dict[str, Any]:
    """The socket's ``chat`` frame: ``history`` true when it is the table's last messages (the page
    then shows these and no other), false for a message just said."""
    return {"type": "chat", "history": history, "messages": [m.as_json() for m in messages]}


def tell_seats(game: Game, messages: list[Message], *, history: bool) -> None:
    """Every seat's group of the table gets the frame (a seat nobody listens to costs a message in
    Redis, no more); a layer that fails loses it live only: the next page opened reads it back."""
    text = orjson.dumps(frame(messages, history=history)).decode()
    for number in range(int(game.config["players"])):
        try:
            publish.group_send(seat_group(game.pk, number), {"type": "table.frame", "text": text})
        except Exception:
            log.exception("could not send game %s's chat to seat %s", game.pk, number)


def history(speaker: Speaker) -> list[Message]:
    """The table's last ``HISTORY`` messages, oldest first."""
    game, _seat = _table(speaker)
    newest = list(Message.objects.filter(game=game).order_by("-id")[:HISTORY])
    return newest[::-1]


def report(speaker: Speaker, content: dict[str, Any]) -> int:
    """A reader reports a message of another seat of their table (once per seat; again is no error)."""
    message_id = bounds.ID.parse(content.get("id"), "id")
    game, number = _table(speaker)
    message = Message.objects.filter(pk=message_id, game=game).first()
    if message is None:
        raise NotFound("no_message", _("There is no such message at this table."))
    if message.seat == number:
        raise ServiceError("own_message", _("You cannot report your own message."))
    user = speaker.user if speaker.user is not None and speaker.user.is_authenticated else None
    try:
        with transaction.atomic():
            Report.objects.get_or_create(message=message, seat=number, defaults={"reporter": user})
    except IntegrityError:  # reported at the same moment by another page of the same seat
        pass
    log.info("chat message %s of game %s reported by seat %s", message.pk, game.pk, number)
    return message.pk
