"""How each game is presented to players: its name and a one-line description, translatable."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import engines


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: Promise
    blurb: Promise
    players: Promise


_INFO = {
    "skyjo": GameInfo(
        "skyjo",
        _("Skyjo"),
        _("Twelve hidden cards in a grid: swap, turn and wipe columns to end with the lowest total."),
        _("2 to 8 players"),
    ),
    "dominoes": GameInfo(
        "dominoes",
        _("Dominoes"),
        _("Double-six dominoes: Block, Draw and All Fives, alone or in partnerships."),
        _("2 to 4 players"),
    ),
    "kazino": GameInfo(
        "kazino",
        _("Kazino"),
        _("The fishing card game: capture, build and make tripes to take 27 cards or more."),
        _("2 players"),
    ),
    "pitch": GameInfo(
        "pitch",
        _("Pitch"),
        _("Auction Pitch: bid, pitch the first card for trump, and take High, Low, Jack and Game."),
        _("2 to 7 players"),
    ),
}


def installed() -> list[GameInfo]:
    return [_INFO[name] for name in engines.names()]


def titles() -> dict[str, Promise]:
    return {name: info.title for name, info in _INFO.items()}
