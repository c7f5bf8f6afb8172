"""The rules pages' pictures: each worked example's position, played through the real engine.

A picture is data: a stacked deal (the engine's ``config["deck"]``, as games/lessons does) and a short
script of moves; the position is whatever the engine makes of them, seen as one audience sees it (the
spectators', or one seat's where the example is about a hand). The page draws it with the table's own
renderer, read-only (frontend/static/frontend/rules/pictures.js). ``tests/frontend/test_rules_pictures.py``
replays every script move by move, so a picture can never show a position the rules do not allow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.translation import gettext_noop

from games import engines
from games.engines.dominoes.tiles import TILE_NAMES
from games.engines.kazino.cards import DECK as KAZINO_DECK
from games.engines.skyjo.state import FULL_DECK as SKYJO_DECK


@dataclass(frozen=True)
class Picture:
    slug: str  # the template tag's name for it: {% rules_picture "skyjo-opening" %}
    engine: str
    config: dict[str, Any]
    moves: tuple[tuple[int, dict[str, Any]], ...]  # (seat, action), in the order of play
    caption: str  # English, translated where it is shown
    seat: int | None = None  # whose view: None for the spectators'
    seed: int = 0


def _stacked(top: list[Any], deck: Sequence[Any]) -> list[Any]:
    """``top`` first, then the rest of the deck in a fixed order."""
    rest = Counter(deck)
    rest.subtract(Counter(top))
    return top + sorted(rest.elements(), key=str)


# Skyjo, seat 1's grid: its first column holds 7 / 3 / 7; seat 2's starts 9 0. The first discard is a 7.
_SKYJO_DEAL = _stacked(
    [*(7, 10, 3, 6, 3, 8, 1, 11, 7, 2, 6, 4), *(9, 0, 6, 3, 1, 0, 7, 8, 5, 10, 11, 12), 7],
    SKYJO_DECK,
)
_SKYJO_OPENING: tuple[tuple[int, dict[str, Any]], ...] = (
    (0, {"type": "reveal", "cell": 0}),
    (1, {"type": "reveal", "cell": 0}),
    (0, {"type": "reveal", "cell": 8}),
    (1, {"type": "reveal", "cell": 1}),
)
_SKYJO_TIE = _stacked(
    [*(5, 10, 3, 6, 4, 8, 1, 11, 7, 2, 6, 4), *(9, 0, 6, 3, 1, 0, 7, 8, 5, 10, 11, 12), 2],
    SKYJO_DECK,
)

# All Fives, two players: seat 1 leads the 5-5, seat 2 holds the 5-0.
_DOMINO_HANDS = [
    *("5-5", "5-3", "6-6", "1-0", "2-2", "6-1", "4-0", "4-2", "3-2"),
    *("5-0", "6-5", "4-4", "3-1", "2-1", "6-2", "1-1", "6-4", "3-3"),
]
_ALL_FIVES = {
    "players": 2,
    "variant": "all_fives",
    "first": 0,
    "deck": _DOMINO_HANDS + [t for t in TILE_NAMES if t not in _DOMINO_HANDS],
}
_SPINNER: tuple[tuple[int, dict[str, Any]], ...] = (
    (0, {"type": "play", "tile": "5-5", "end": "center"}),
    (1, {"type": "play", "tile": "5-0", "end": "left"}),
)

# Kazino, seat 2 deals: four cards on the table, then four for seat 1 and four for seat 2.
_KAZINO_CAPTURE = ["10H", "4C", "QD", "2S", "AS", "5D", "KC", "7S", "8H", "6S", "2H", "5C"]
_KAZINO_BUILD = ["8H", "3C", "9D", "JS", "5D", "KC", "2C", "6H", "4S", "10D", "AH", "7C"]

# Pitch, seat 2 deals three at a time, seat 1 first: the Jack of hearts is the only heart dealt.
_PITCH = {
    "players": 2,
    "dealer": 1,
    "deck": ["AS", "KS", "2S", "JH", "9D", "8D", "10C", "4C", "3D", "QC", "7S", "6C"],
}

PICTURES: tuple[Picture, ...] = (
    Picture(
        "skyjo-opening",
        "skyjo",
        {"players": 2, "deck": _SKYJO_TIE},
        (
            (0, {"type": "reveal", "cell": 0}),
            (1, {"type": "reveal", "cell": 0}),
            (0, {"type": "reveal", "cell": 4}),
            (1, {"type": "reveal", "cell": 1}),
        ),
        gettext_noop(
            "Seat 1 turned 5 and 4, seat 2 turned 9 and 0: both show 9, and seat 2 starts, with the "
            "highest single card."
        ),
    ),
    Picture(
        "skyjo-column",
        "skyjo",
        {"players": 2, "deck": _SKYJO_DEAL},
        _SKYJO_OPENING,
        gettext_noop(
            "Seat 1's first column shows 7, a face-down card and 7, and a 7 tops the discard pile: "
            "taking it onto the face-down card makes three 7s."
        ),
    ),
    Picture(
        "skyjo-column-wiped",
        "skyjo",
        {"players": 2, "deck": _SKYJO_DEAL},
        (*_SKYJO_OPENING, (0, {"type": "take_discard", "cell": 4})),
        gettext_noop("The three 7s are wiped out: seat 1's grid has three columns left."),
    ),
    Picture(
        "dominoes-spinner",
        "dominoes",
        _ALL_FIVES,
        _SPINNER,
        gettext_noop(
            "All Fives: the 5-5 is the spinner. With the 5-0 on one side the ends count 0 + 10 = 10, "
            "and seat 2 scores 10."
        ),
    ),
    Picture(
        "dominoes-spinner-closed",
        "dominoes",
        _ALL_FIVES,
        (*_SPINNER, (0, {"type": "play", "tile": "5-3", "end": "right"})),
        gettext_noop(
            "Then the 5-3 on the other side: the spinner no longer counts, the ends are 0 + 3 = 3, no score."
        ),
    ),
    Picture(
        "kazino-capture",
        "kazino",
        {"players": 2, "dealer": 1, "deck": _stacked(_KAZINO_CAPTURE, KAZINO_DECK)},
        (),
        gettext_noop(
            "The table holds 10, 4, Q and 2, and seat 1 holds an Ace: played as 14, it takes "
            "[10 + 4] and [Q + 2], five cards with the Ace."
        ),
        seat=0,
    ),
    Picture(
        "kazino-build",
        "kazino",
        {"players": 2, "dealer": 1, "deck": _stacked(_KAZINO_BUILD, KAZINO_DECK)},
        ((0, {"type": "build", "card": "5D", "on": "8H", "value": 13}),),
        gettext_noop(
            "Seat 1 put a 5 on the 8 to build 13, holding a K to take it later: without the K, the "
            "build would not be allowed."
        ),
        seat=0,
    ),
    Picture(
        "pitch-dealer-bids",
        "pitch",
        _PITCH,
        ((0, {"type": "pass"}),),
        gettext_noop(
            "Seat 1 passed: seat 2, the dealer, may not pass or bid 1, and must bid 2 or 3, or pitch."
        ),
        seat=1,
    ),
    Picture(
        "pitch-jack-led",
        "pitch",
        _PITCH,
        ((0, {"type": "pass"}), (1, {"type": "bid", "amount": 2}), (1, {"type": "play", "card": "JH"})),
        gettext_noop(
            "Seat 2, the pitcher, leads the Jack of hearts, the only heart dealt: hearts are trump, "
            "and seat 2 wins the trick and scores High, Low and Jack."
        ),
    ),
)

BY_SLUG = {picture.slug: picture for picture in PICTURES}


def replay(picture: Picture) -> Any:
    """The engine's state after the picture's moves; ``IllegalAction``/``AssertionError`` if a move is
    not the engine's own legal move for a seat that has to act."""
    engine = engines.get(picture.engine)
    state = engine.replay(engine.start(engine.validate_config(picture.config), picture.seed))
    for seat, action in picture.moves:
        if seat not in engine.to_act(state) or action not in engine.legal_actions(state, seat):
            raise ValueError(f"{picture.slug}: {action} is not a legal move for seat {seat}")
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
    return state


@cache
def position(slug: str) -> dict[str, Any]:
    """What the renderer is given, shaped like the table's state message (games/live/publish.py): the
    audience's view, who is to act and, for a seat's picture, the moves it could make (drawn as at the
    table, so a hand looks playable and Pitch's dealer shows the bids left; the page makes them inert)."""
    picture = BY_SLUG[slug]
    engine = engines.get(picture.engine)
    state = replay(picture)
    return {
        "type": "state",
        "seq": len(picture.moves),
        "seat": picture.seat,
        "view": engine.view(state, picture.seat),
        "to_act": engine.to_act(state),
        "legal_actions": engine.legal_actions(state, picture.seat) if picture.seat is not None else [],
        "finished": engine.outcome(state) is not None,
        "paused": False,
        "game_number": 1,
        "seats": [],
        "engine": picture.engine,
    }
