"""What a replay client is sent: moment metadata and ``Replay.picture`` results, nothing else.

Event data goes out only for the event types the engine lists in ``PUBLIC_EVENTS`` (the same rule as
the live move log, ``games.live.publish.last_move``): a deal, a draw or a setup event holds cards or the
seed. Pictures lose a stacked deck in their config: "all cards open" (``engine.reveal``) returns the
whole config, and a deck given there may be the deck of a duplicate round dealt elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from replay import access
from replay.access import Perspective, Viewer
from replay.frames import Moment, Replay

CHUNK = 40  # pictures per message: a long Skyjo round stays well under a megabyte per message
SECRET_CONFIG = ("deck", "seed")


def public_events(replay: Replay) -> frozenset[str]:
    return frozenset(getattr(replay.engine, "PUBLIC_EVENTS", frozenset()))


def moment_json(replay: Replay, moment: Moment, public: frozenset[str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "index": moment.index,
        "seq": moment.seq,
        "type": moment.type,
        "actor": moment.actor,
        "hand": moment.hand,
        "end": moment.command_end,
    }
    if moment.type in public:
        event = replay.events[moment.index]
        out["data"] = {k: v for k, v in event.items() if k != "type"}
    return out


def clean(picture: dict[str, Any]) -> dict[str, Any]:
    """A picture without the config's secrets (see the module's docstring)."""
    config = picture.get("config")
    if isinstance(config, dict) and any(key in config for key in SECRET_CONFIG):
        picture = {**picture, "config": {k: v for k, v in config.items() if k not in SECRET_CONFIG}}
    return picture


def hand_messages(
    replay: Replay, viewer: Viewer, perspective: Perspective, hand: int
) -> Iterator[dict[str, Any]]:
    """The ``hand`` messages for one hand from one perspective, CHUNK moments each.

    Every index is checked with ``frames.allowed``. The moments are cut where the perspective stops
    being allowed (the spectator delay of a live game); a hand with no moment allowed at all raises
    the refusal (a ServiceError with the NotAllowed code).
    """
    span = next(((first, last) for number, first, last in access.hand_spans(replay) if number == hand), None)
    if span is None:
        raise access.refusal("no_such_moment")
    first, last = span
    shown: list[int] = []
    for index in range(first, last + 1):
        why = access.may_see(replay, perspective, index, viewer)
        if why is not None:
            if not shown:
                raise access.refusal(why)
            break
        shown.append(index)
    public = public_events(replay)
    total = len(shown)
    for offset in range(0, total, CHUNK):
        part = shown[offset : offset + CHUNK]
        yield {
            "type": "hand",
            "hand": hand,
            "perspective": perspective,
            "first": first,
            "total": total,
            "cut": shown[-1] < last,
            "offset": offset,
            "moments": [moment_json(replay, replay.moments[i], public) for i in part],
            "pictures": [clean(replay.picture(i, perspective)) for i in part],
        }
