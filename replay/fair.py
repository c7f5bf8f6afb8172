"""Checking a game's fair-deal proof (games/eventlog/commitment.py, docs/fair-deals.md).

The deals in effect are read from the log by the engine's ``deals_in``; each played hand's leaf is
recomputed from them and the salt the reveal opened, and must be the leaf committed to before that
hand was dealt. Works on a stored game (``verify``) or on the rows of an "all" export (``verify_log``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import engines
from games.engines.base import Engine
from games.eventlog import commitment, store, timeline
from games.eventlog.tables import get_game

VERIFIED, FAILED, PENDING, ABSENT = "verified", "failed", "pending", "absent"


@dataclass(frozen=True)
class Verdict:
    """What the check found. ``message`` is for people (translated); ``seq`` names the event that
    fails, when one does; ``roots`` are the commitments (public: they hide the deals)."""

    status: str
    message: str
    hands: int = 0  # played hands whose deal was checked
    roots: tuple[str, ...] = ()
    seq: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == VERIFIED

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "ok": self.ok,
            "hands": self.hands,
            "message": self.message,
            "roots": list(self.roots),
            "seq": self.seq,
        }


#: Verdicts kept per process, by game, head (seq and hash) and language: the check reads and folds the
#: whole log, and a log's head names all of it (the hash chain), so a finished game's verdict never
#: changes — a replay page asked again does not fold its game again (#37: 16,000 events, 1.3 s).
_kept: OrderedDict[tuple[int, int, str, str], Verdict] = OrderedDict()
_kept_lock = threading.Lock()
VERDICTS_KEPT = 256


def forget_all() -> None:
    with _kept_lock:
        _kept.clear()


def verify(game_id: int, *, opened: bool = True, head: tuple[int, str | None] | None = None) -> Verdict:
    """The fair-deal check of a stored game (raises games.errors.NotFound for an unknown game).

    ``opened=False`` (a game over whose deal is still secret, replay.frames.Replay.finished) shows it
    as still pending: how many hands were checked, or which one failed, would tell of the play.
    ``head``: the log's (seq, hash) as the caller loaded it (``Replay.head``), to reuse the verdict of
    that head; the log is read only when it is not kept.
    """
    key = (game_id, head[0], head[1] or "", get_language() or "") if head is not None else None
    with _kept_lock:
        verdict = _kept.get(key) if key is not None else None
        if verdict is not None and key is not None:
            _kept.move_to_end(key)
    if verdict is None:
        game = get_game(game_id)
        engine = engines.get(game.engine)
        stored = store.load(game.pk)
        rows = [timeline.Row(e.seq, e.type, e.data, e.actor, e.command_id) for e in stored]
        verdict = verify_log(engine, rows)
        # Kept only for the head it was asked of: a move stored since is a new head.
        if key is not None and stored and (stored[-1].seq, stored[-1].hash or "") == key[1:3]:
            with _kept_lock:
                _kept[key] = verdict
                while len(_kept) > VERDICTS_KEPT:
                    _kept.popitem(last=False)
    if not opened and verdict.status in (VERIFIED, FAILED):
        return Verdict(PENDING, _pending_message(), 0, verdict.roots)
    return verdict


def _pending_message() -> str:
    return _("The deals are committed to; they will be opened when the game ends.")


def _failed(message: str, roots: tuple[str, ...], seq: int | None, hands: int = 0) -> Verdict:
    return Verdict(FAILED, message, hands, roots, seq)


def _opened(rows: Sequence[timeline.Row]) -> dict[int, dict[str, Any]]:
    """The last reveal of each commitment in play (a casual game ended again after an undo is
    revealed again)."""
    found: dict[int, dict[str, Any]] = {}
    for row in reversed(rows):
        if row.type in (timeline.RESTART, timeline.NEW_GAME):
            break
        if row.type == commitment.REVEAL and isinstance(row.data.get("commit"), int):
            found.setdefault(row.data["commit"], row.data)
    return found


def _commit_leaves(data: dict[str, Any]) -> tuple[int, int, list[str]] | None:
    """(first hand, last hand, leaves) of a well-formed commitment whose root is its leaves' hash."""
    try:
        first, last = (int(h) for h in data["hands"])
        leaves = [str(x) for x in data["leaves"]]
        if data["scheme"] != commitment.SCHEME or len(leaves) != last - first + 1 or first < 1:
            return None
        if commitment.root(leaves) != data["root"]:
            return None
    except (KeyError, TypeError, ValueError):
        return None
    return first, last, leaves


def verify_log(engine: Engine, rows: Sequence[timeline.Row]) -> Verdict:
    """The fair-deal check of a game's log: every stored row, in seq order."""
    if not commitment.covers(engine):
        return Verdict(ABSENT, _("Games of this kind do not commit to their deals in advance."))
    commits = commitment.in_play(rows)
    if not commits:
        return Verdict(ABSENT, _("This game was dealt without a fair-deal commitment."))
    roots = tuple(str(data.get("root", "")) for _seq, data in commits)
    ranges: list[tuple[int, int, int, list[str]]] = []  # (commit seq, first, last, leaves)
    for seq, data in commits:
        parsed = _commit_leaves(data)
        if parsed is None:
            return _failed(_("The commitment at event {seq} is malformed.").format(seq=seq), roots, seq)
        ranges.append((seq, *parsed))
    folded = timeline.fold(rows)
    numbered = folded.numbered_events()
    deals_in = commitment.dealer(engine).deals_in
    try:
        played = deals_in([event for _seq, event in numbered])
        dealt_at: dict[int, int] = {}
        for seq, event in numbered:
            for hand in deals_in([event]):
                dealt_at.setdefault(hand, seq)
    except (KeyError, TypeError, ValueError, IndexError):  # deals the engine cannot read prove nothing
        return _failed(_("The deals in this game's log cannot be read."), roots, None)
    try:
        state = engine.replay(folded.engine_events())
        over = engine.outcome(state) is not None or folded.abandoned or folded.resigned is not None
    except Exception:  # a log its engine cannot fold (verify_events says where): check its deals as they are
        over = True
    owner: dict[int, tuple[int, int, list[str]]] = {}
    for hand in sorted(played):
        found = [(seq, first, leaves) for seq, first, last, leaves in ranges if first <= hand <= last]
        if not found:
            message = _("Hand {hand} was dealt without a commitment.").format(hand=hand)
            return _failed(message, roots, dealt_at.get(hand))
        seq, first, leaves = found[-1]
        if seq > dealt_at.get(hand, 0):
            message = _("Hand {hand} was dealt before it was committed to.").format(hand=hand)
            return _failed(message, roots, dealt_at.get(hand))
        owner[hand] = (seq, first, leaves)
    if not over:
        return Verdict(PENDING, _pending_message(), 0, roots)
    opened = _opened(rows)
    checked = 0
    for hand in sorted(played):
        seq, first, leaves = owner[hand]
        reveal = opened.get(seq)
        if reveal is None:
            message = _("The game is over but the commitment at event {seq} was never opened.")
            return _failed(message.format(seq=seq), roots, seq, checked)
        entries = {e.get("hand"): e for e in reveal.get("hands", []) if isinstance(e, dict)}
        entry = entries.get(hand)
        deal = played[hand]
        bad = _("Hand {hand} does not match the deal committed to before it was dealt.").format(hand=hand)
        if entry is None or entry.get("drawn") != len(deal["drawn"]):
            return _failed(bad, roots, dealt_at.get(hand), checked)
        try:
            leaf = commitment.opened_leaf(entry, deal["open"], deal["drawn"]).hex()
        except (KeyError, TypeError, ValueError):
            return _failed(bad, roots, dealt_at.get(hand), checked)
        if leaf != leaves[hand - first]:
            return _failed(bad, roots, dealt_at.get(hand), checked)
        checked += 1
    message = _("{hands} hands checked: every deal is the one committed to before it was dealt.")
    return Verdict(VERIFIED, message.format(hands=checked), checked, roots)
