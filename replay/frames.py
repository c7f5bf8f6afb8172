"""A game's log as a row of moments, and what any audience saw at each one.

Everything here is computed from the log by the engine: a seat's picture at a moment is
``engine.view(state, seat)`` of the state after that event, which is exactly what that seat
was sent live after the command the event ended; "all cards open" is ``engine.reveal``.
Who may look from where is decided in one place, ``allowed``.

A replay follows the events in effect at the end (an undone move is not replayed; a casual
table's restart or new game replays the game being played since). Tournament games never undo.

The fold into moments is done once per game head and process, and shared by every viewer and page
(``load``): a live game's next move extends it; only what depends on the moment it is asked (the
seats, whether the deal is still secret, what spectators may see) is read for each load.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Engine
from games.eventlog import tables, timeline
from games.models import Seat

ALL, PUBLIC = "all", "public"


@dataclass(frozen=True)
class Moment:
    """One engine event in effect: where it was stored and what hand it belongs to."""

    index: int  # 0-based position in the replay
    seq: int  # the event's seq in the game's log (links name this)
    type: str
    actor: str
    hand: int  # the hand (round, deal) number shown in every view
    command_end: bool  # the last event of its command: live audiences were sent this moment


@dataclass
class Replay:
    game_id: int
    engine: Engine
    config: dict[str, Any]
    seats: list[dict[str, Any]]
    kind: str
    finished: bool  # the game is over and nothing of it is still secret elsewhere (duplicate)
    moments: list[Moment]
    states: list[Any] = field(repr=False)
    public_upto: int  # the last index spectators may see now (spectator delay of a live game)
    events: list[dict[str, Any]] = field(repr=False)  # the engine events, one per moment
    stopped: str = ""  # why the game was stopped before its end ("forfeit", "no-show"…), if it was
    head: tuple[int, str | None] = (0, None)  # the log's last seq and hash this replay was folded from

    @property
    def players(self) -> int:
        return int(self.config["players"])

    def index_of(self, seq: int) -> int:
        """The moment at or just before ``seq`` (a link may name any stored seq)."""
        best = 0
        for moment in self.moments:
            if moment.seq > seq:
                break
            best = moment.index
        return best

    def hands(self) -> list[tuple[int, int, int]]:
        """(hand number, first index, last index) of every hand in the replay."""
        out: list[tuple[int, int, int]] = []
        for moment in self.moments:
            if out and out[-1][0] == moment.hand:
                out[-1] = (moment.hand, out[-1][1], moment.index)
            else:
                out.append((moment.hand, moment.index, moment.index))
        return out

    def hand_over(self, index: int) -> bool:
        """Whether the hand of this moment has ended (a later hand began, or the game is over)."""
        if self.finished:
            return True
        hand = self.moments[index].hand
        return any(m.hand > hand for m in self.moments[index + 1 :])

    def picture(self, index: int, perspective: str | int) -> dict[str, Any]:
        """The view of ``perspective`` (a seat, "public" or "all") after moment ``index``.

        Call ``allowed`` first: this only computes.
        """
        return picture_of(self.engine, self.states[index], perspective)


def picture_of(engine: Engine, state: Any, perspective: str | int) -> dict[str, Any]:
    """The view of ``perspective`` of any state of the game (a moment's, or one the review imagines)."""
    if perspective == ALL:
        return engine.reveal(state)
    return engine.view(state, None if perspective == PUBLIC else int(perspective))


class NotAllowed(Exception):
    """This viewer may not look from there (yet)."""


def allowed(replay: Replay, perspective: str | int, index: int, my_seats: frozenset[int]) -> None:
    """Raise NotAllowed unless a viewer playing ``my_seats`` may see ``perspective`` at ``index``.

    A finished game: every seat, spectators, and all cards open. A game still being played (or a
    duplicate deal other tables still play): only your own seats, up to now, and the spectators'
    picture, up to what spectators see live (the spectator delay holds for replays too).
    """
    if not 0 <= index < len(replay.moments):
        raise NotAllowed("no_such_moment")
    if perspective == PUBLIC:
        if not replay.finished and index > replay.public_upto:
            raise NotAllowed("not_public_yet")
        return
    if perspective == ALL:
        if not replay.finished or not replay.hand_over(index):
            raise NotAllowed("hand_not_over")
        return
    seat = perspective
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < replay.players:
        raise NotAllowed("no_such_seat")
    if not replay.finished and seat not in my_seats:
        raise NotAllowed("not_your_seat")


@dataclass(frozen=True)
class _Frames:
    """A game's moments and states up to a head (its seq and hash): shared, never changed once made."""

    seq: int
    hash: str | None
    version: int
    moments: list[Moment]
    states: list[Any]
    events: list[dict[str, Any]]


_kept: OrderedDict[int, _Frames] = OrderedDict()
_kept_lock = threading.Lock()
FRAMES_KEPT = 64


def forget_all() -> None:
    with _kept_lock:
        _kept.clear()


def load(game_id: int) -> Replay:
    """A game's replay: its moments folded once per head (``_frames``), with who sits where, whether
    it is finished for everyone and what spectators may see, as they are now."""
    table = tables.load_table(game_id)
    frames = _frames(table)
    game = table.game
    seats = [
        {
            "number": s.number,
            "user_id": s.user_id,
            "bot_level": s.bot_level,
            "display_name": s.display_name,
            "team": s.team,
        }
        for s in Seat.objects.filter(game_id=game.pk).order_by("number")
    ]
    over = table.over()
    secret = game.deal_is_secret()
    public_seq = tables.spectator_cut(table)
    public_upto = max((m.index for m in frames.moments if m.seq <= public_seq), default=0)
    return Replay(
        game_id=game.pk,
        engine=table.engine,
        config=dict(game.config),
        seats=seats,
        kind=game.kind,
        finished=over and not secret,
        moments=frames.moments,
        states=frames.states,
        public_upto=public_upto,
        events=frames.events,
        stopped=table.timeline.abandon_reason or ("stopped" if table.timeline.abandoned else ""),
        head=(table.seq, table.head_hash),
    )


def _frames(table: tables.Table) -> _Frames:
    """The moments of ``table``'s head: kept, extended from the last head kept (when only moves were
    stored since), or folded from the start."""
    game_id, engine = table.game.pk, table.engine
    with _kept_lock:
        kept = _kept.get(game_id)
    if kept is not None and (kept.seq, kept.hash, kept.version) == (
        table.seq,
        table.head_hash,
        engine.VERSION,
    ):
        with _kept_lock:
            _kept.move_to_end(game_id)
        return kept
    start = kept if kept is not None and _extends(kept, table) else None
    moments = list(start.moments) if start else []
    states = list(start.states) if start else []
    events = list(start.events) if start else []
    after = start.seq if start else 0
    state = states[-1] if states else engine.replay([])
    rows = {e.seq: e for e in table.events if e.seq > after}
    for group in table.timeline.groups:
        if group.seqs[-1] <= after:
            continue
        for position, (seq, event) in enumerate(zip(group.seqs, group.events, strict=True)):
            if seq <= after:
                continue
            state = engine.apply(state, event)
            hand = engine.view(state, None).get("hand", 1)
            moments.append(
                Moment(
                    index=len(moments),
                    seq=seq,
                    type=event["type"],
                    actor=rows[seq].actor if seq in rows else group.actor,
                    hand=int(hand) if isinstance(hand, int) else 1,
                    command_end=position == len(group.seqs) - 1,
                )
            )
            states.append(state)
            events.append(event)
    frames = _Frames(table.seq, table.head_hash, engine.VERSION, moments, states, events)
    with _kept_lock:
        current = _kept.get(game_id)
        if current is None or current.seq <= frames.seq:
            _kept[game_id] = frames
        _kept.move_to_end(game_id)
        while len(_kept) > FRAMES_KEPT:
            _kept.popitem(last=False)
    return frames


def _extends(kept: _Frames, table: tables.Table) -> bool:
    """Whether ``table`` is ``kept``'s head followed by moves only (no table event changed what counts)."""
    if kept.version != table.engine.VERSION or kept.seq >= table.seq or kept.seq == 0:
        return False
    at = table.events[kept.seq - 1] if len(table.events) >= kept.seq else None  # seqs are 1, 2, 3…
    if at is None or at.seq != kept.seq or at.hash != kept.hash:
        return False
    return not any(e.type in timeline.TABLE_EVENTS for e in table.events if e.seq > kept.seq)
