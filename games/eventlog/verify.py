"""Checking a stored game: the hash chain, then a replay of its events through its engine."""

from __future__ import annotations

from collections.abc import Sequence

from games import engines
from games.engines.base import IllegalAction
from games.eventlog import store, streams, timeline
from games.models import Event, Game


def verify_game(game: Game, events: Sequence[Event]) -> store.ChainError | None:
    """The first problem in a game's log, or None: a broken chain, or an event its engine cannot fold."""
    problem = store.verify_chain(game.pk, events)
    if problem is not None:
        return problem
    if game.kind == Game.Kind.LOG:
        return _verify_stream(game, events)
    try:
        engine = engines.get(game.engine)
    except IllegalAction:
        return store.ChainError(game.pk, 0, f"unknown engine {game.engine!r}")
    folded = timeline.fold(timeline.Row(e.seq, e.type, e.data, e.actor, e.command_id) for e in events)
    state = engine.replay([])
    for seq, event in folded.numbered_events():
        try:
            state = engine.apply(state, event)
        except Exception as exc:  # a stored event its engine cannot fold means a corrupt log
            return store.ChainError(game.pk, seq, f"the engine cannot replay it ({type(exc).__name__})")
    return None


def _verify_stream(game: Game, events: Sequence[Event]) -> store.ChainError | None:
    fold = streams.fold_for(game.engine)
    if fold is None:
        return None  # no part registered a fold for this stream: the chain is all there is to check
    try:
        fold([{"type": e.type, **e.data} for e in events])
    except Exception as exc:
        return store.ChainError(game.pk, 0, f"the {game.engine} log cannot be folded ({exc})")
    return None
