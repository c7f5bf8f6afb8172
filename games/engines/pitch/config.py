"""Pitch table options: defaults from the rules page, validation, the sample tables, and sides."""

from __future__ import annotations

from games.engines.base import Config, IllegalAction, _
from games.engines.pitch.cards import HAND_SIZE, SUIT_OF

TARGETS = (7, 11, 15, 21)
MIN_PLAYERS, MAX_PLAYERS = 2, 7
# The rules page has no hand limit ("play continues until a pitcher ends a hand at or above the
# target"): none by default; a table or tournament may set one (docs/games/pitch.md, "Hand limit").
DEFAULT_MAX_HANDS: int | None = None
MAX_MAX_HANDS = 200
_CONFIG_KEYS = {"players", "partnerships", "target", "dealer", "max_hands", "deck"}


def default_config(players: int) -> Config:
    return validate_config({"players": players})


def validate_config(config: Config) -> Config:
    if not isinstance(config, dict):
        raise IllegalAction("bad_config", _("The table settings must be a set of named options."))
    unknown = sorted(str(k)[:30] for k in config if k not in _CONFIG_KEYS)
    if unknown:
        raise IllegalAction("unknown_option", _("Pitch has no option called {option}."), option=unknown[0])
    players = config.get("players")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction("bad_players", _("Pitch is played by 2 to 7 players."))
    partnerships = config.get("partnerships", False)
    if type(partnerships) is not bool:
        raise IllegalAction("bad_partnerships", _("Partnerships must be on or off."))
    if partnerships and players != 4:
        raise IllegalAction("partnerships_need_four", _("Partnerships are played by exactly 4 players."))
    target = config.get("target", 7)
    if type(target) is not int or target not in TARGETS:
        raise IllegalAction("bad_target", _("The target must be 7, 11, 15 or 21 points."))
    dealer = config.get("dealer", 0)
    if type(dealer) is not int or not 0 <= dealer < players:
        raise IllegalAction("bad_dealer", _("The first dealer must be one of the seats."))
    max_hands = config.get("max_hands", DEFAULT_MAX_HANDS)
    if max_hands is not None and (type(max_hands) is not int or not 1 <= max_hands <= MAX_MAX_HANDS):
        raise IllegalAction("bad_max_hands", _("The hand limit must be from 1 to 200 hands, or none."))
    out: Config = {
        "players": players,
        "partnerships": partnerships,
        "target": target,
        "dealer": dealer,
        "max_hands": max_hands,
    }
    deck = config.get("deck")
    if deck is not None:
        if (
            not isinstance(deck, list)
            or not all(isinstance(c, str) and c in SUIT_OF for c in deck)
            or len(set(deck)) != len(deck)
            or len(deck) < HAND_SIZE * players
        ):
            raise IllegalAction(
                "bad_deck",
                _("The deck must list at least {count} different cards, like 10H or QS."),
                count=HAND_SIZE * players,
            )
        out["deck"] = list(deck)
    return out


def sample_configs() -> list[Config]:
    """Every player count, partnerships, every target and first dealer, with short hand limits.

    Random play almost never ends Pitch by the target (random pitchers bid 4 and are set
    back, so every score drifts down), so these tables stop after a few hands; the default
    (no limit) is exercised by the tests of the hand limit.
    """
    options: list[Config] = [{"players": n, "max_hands": 6} for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    options += [
        {"players": 4, "partnerships": True, "max_hands": 8},
        {"players": 3, "target": 11, "dealer": 2, "max_hands": 10},
        {"players": 2, "target": 15, "dealer": 1, "max_hands": 24},
        {"players": 4, "partnerships": True, "target": 21, "dealer": 3, "max_hands": 6},
    ]
    return [validate_config(o) for o in options]


def side_of(config: Config, seat: int) -> int:
    """Partners (seats 0 + 2, 1 + 3) share a side; otherwise every seat is its own side."""
    return seat % 2 if config["partnerships"] else seat


def sides(config: Config) -> list[list[int]]:
    n: int = config["players"]
    return [[0, 2], [1, 3]] if config["partnerships"] else [[s] for s in range(n)]
