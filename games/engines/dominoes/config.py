"""Table options and their defaults, as the rules page gives them."""

from __future__ import annotations

from typing import Any

from games.engines.base import Config, IllegalAction, _

from .tiles import TILE_NAMES, parse

VARIANTS = ("block", "draw", "all_fives")
OPTIONS = ("players", "variant", "partnerships", "first", "target", "deck")
MAX_TARGET = 10_000


def default_target(variant: str, players: int) -> int:
    if variant == "all_fives":
        return 250 if players == 2 else 200
    return 100


def tiles_per_player(variant: str, players: int) -> int:
    if variant == "all_fives":
        return {2: 9, 3: 7, 4: 5}[players]
    return 7 if players == 2 else 5


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_config(config: Config) -> Config:
    """The normalised config (every option present), or IllegalAction with a clear sentence."""
    if not isinstance(config, dict):
        raise IllegalAction("bad_config", _("The game settings must be a set of named options."))
    for key in config:
        if key not in OPTIONS:
            raise IllegalAction("unknown_option", _("There is no option called {name}."), name=str(key)[:40])
    if "players" not in config:
        raise IllegalAction("missing_players", _("Say how many players sit at the table (2, 3 or 4)."))
    players = config["players"]
    if not _is_int(players) or players not in (2, 3, 4):
        raise IllegalAction("bad_players", _("Dominoes is played by 2, 3 or 4 players."))
    variant = config.get("variant", "block")
    if variant not in VARIANTS:
        raise IllegalAction("bad_variant", _("The variant must be Block, Draw or All Fives."))
    partnerships = config.get("partnerships", False)
    if not isinstance(partnerships, bool):
        raise IllegalAction("bad_partnerships", _("Partnerships is either on or off."))
    if partnerships and players != 4:
        raise IllegalAction("partnerships_need_four", _("Partnerships are played by exactly 4 players."))
    first = config.get("first")
    if first is not None and (not _is_int(first) or not 0 <= first < players):
        raise IllegalAction(
            "bad_first", _("The first leader must be a seat from 0 to {last}."), last=players - 1
        )
    target = config.get("target")
    if target is None:
        target = default_target(variant, players)
    elif not _is_int(target) or not 1 <= target <= MAX_TARGET:
        raise IllegalAction(
            "bad_target", _("The target must be a whole number of points from 1 to {most}."), most=MAX_TARGET
        )
    deck = config.get("deck")
    if deck is not None:
        if (
            not isinstance(deck, list)
            or len(deck) != len(TILE_NAMES)
            or any(parse(tile) is None for tile in deck)
            or len(set(deck)) != len(TILE_NAMES)
        ):
            raise IllegalAction(
                "bad_deck",
                _(
                    "A stacked deck must list each of the 28 tiles exactly once, written high half first (5-3)."
                ),
            )
        deck = list(deck)
    return {
        "players": players,
        "variant": variant,
        "partnerships": partnerships,
        "first": first,
        "target": target,
        "deck": deck,
    }


def default_config(players: int) -> Config:
    return validate_config({"players": players})


def sample_configs() -> list[Config]:
    """Every player count, variant and option; low targets keep the long contract run quick."""
    samples: list[Config] = []
    for variant in VARIANTS:
        for players in (2, 3, 4):
            samples.append({"players": players, "variant": variant})  # the rules' target for these
        samples.append({"players": 4, "variant": variant, "partnerships": True, "target": 60})
        samples.append({"players": 3, "variant": variant, "first": 2, "target": 40})
    samples.append({"players": 2, "variant": "all_fives", "target": 30, "first": 1})
    samples.append({"players": 2, "variant": "block", "target": 1})
    return [validate_config(c) for c in samples]
