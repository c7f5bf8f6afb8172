"""The better move on the board: the position a flagged decision faced, with the review's better
move played on it instead of the move that was made.

The position is the one **before** the judged command (``Replay.states[first − 1]``, the state the
review scored from; #33: a "Better" line once described the board after the move played). The
engine plays the better action (``engine.decide`` then ``engine.apply``), up to the end of the
hand it is in (the next deal is not imagined). The picture is the same view the replay would give
this viewer from that perspective at that moment (``frames.allowed`` through ``access.may_see``;
``frames.picture_of``; ``pictures.clean``): the review exists only for finished games, but the
rule is asked, not assumed.
"""

from __future__ import annotations

import json
from typing import Any

from games.engines.base import Action, Engine, _
from games.errors import ServiceError
from replay import access, frames, pictures, review
from replay.access import Perspective, Viewer
from replay.frames import Replay

NO_BETTER_MOVE = _("The review names no better move at this moment.")


def _hand(engine: Engine, state: Any) -> Any:
    return engine.view(state, None).get("hand")


def after(engine: Engine, state: Any, seat: int, action: Action) -> Any:
    """``state`` with ``action`` played by ``seat``: its events applied while the hand lasts."""
    # Compared as JSON: a stored action's lists may be an engine's tuples.
    wanted = json.dumps(action, sort_keys=True)
    legal = [a for a in engine.legal_actions(state, seat) if json.dumps(a, sort_keys=True) == wanted]
    if not legal:
        raise ServiceError("no_better_move", NO_BETTER_MOVE)
    action = legal[0]
    hand = _hand(engine, state)
    for event in engine.decide(state, seat, action):
        following = engine.apply(state, event)
        if _hand(engine, following) != hand:
            break
        state = following
    return state


def flagged(decisions: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    """The flagged decision named by ``seq`` (its command's first event) that has a better move."""
    for decision in decisions:
        if decision["seq"] == seq and decision["label"] and decision["best"] != decision["played"]:
            return decision
    raise ServiceError("no_better_move", NO_BETTER_MOVE)


def board(replay: Replay, viewer: Viewer, seq: int, perspective: Perspective) -> dict[str, Any]:
    """The better move of the decision ``seq`` on the board, as ``perspective`` sees it: the
    picture, the moves (better and played) and the seqs of the moments before and after."""
    decision = flagged(review.timeline(replay.game_id), seq)
    first = replay.index_of(seq)
    if first == 0 or replay.moments[first].seq != seq:
        raise ServiceError("no_better_move", NO_BETTER_MOVE)
    before = first - 1
    for index in (before, first):
        why = access.may_see(replay, perspective, index, viewer)
        if why is not None:
            raise access.refusal(why)
    state = after(replay.engine, replay.states[before], decision["seat"], decision["best"])
    return {
        "seq": seq,
        "seat": decision["seat"],
        "label": decision["label"],
        "best": decision["best"],
        "played": decision["played"],
        "before": replay.moments[before].seq,
        "perspective": perspective,
        "picture": pictures.clean(frames.picture_of(replay.engine, state, perspective)),
    }
