"""The options a table creator may set per game, with the rules pages' defaults.

A field is (key, kind, label, choices); kinds: "number", "choice", "bool". Values the creator leaves
alone come from the engine's ``default_config``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Option:
    key: str
    kind: str
    label: Promise
    choices: list[tuple[Any, Promise | str]] = field(default_factory=list)


@dataclass(frozen=True)
class GameOptions:
    players: tuple[int, ...]
    default_players: int
    options: list[Option]


GAME_OPTIONS: dict[str, GameOptions] = {
    "skyjo": GameOptions(
        (2, 3, 4, 5, 6, 7, 8), 2, [Option("target", "number", _("The game ends when someone reaches"))]
    ),
    "dominoes": GameOptions(
        (2, 3, 4),
        2,
        [
            Option(
                "variant",
                "choice",
                _("Variant"),
                [("block", _("Block")), ("draw", _("Draw")), ("all_fives", _("All Fives"))],
            ),
            Option("partnerships", "bool", _("Partnerships (4 players: seats 1 and 3 against 2 and 4)")),
            Option("target", "number", _("Points to win (empty: the rules' default)")),
        ],
    ),
    "kazino": GameOptions(
        (2,),
        2,
        [
            Option(
                "match",
                "choice",
                _("Match"),
                [
                    ("target", _("Against the computer: first to 160")),
                    ("single", _("One game, rematch after")),
                ],
            ),
            Option("kings_aces_bonus", "bool", _("Bonus for all four Kings and all four Aces")),
        ],
    ),
    "pitch": GameOptions(
        (2, 3, 4, 5, 6, 7),
        4,
        [
            Option("target", "choice", _("Play to"), [(7, "7"), (11, "11"), (15, "15"), (21, "21")]),
            Option("partnerships", "bool", _("Partnerships (4 players: seats 1 and 3 against 2 and 4)")),
        ],
    ),
}

# Whether a new table is rated or casual (games.models.Game.Kind; docs/security.md "Rated and
# casual"). Kazino's rules count every online game in the ranking (../shared/rules/kazino.md,
# "Matches"), so its form starts on rated; the other games start on casual.
RATED_BY_DEFAULT = frozenset({"kazino"})
TABLE_KINDS = ("rated", "casual")

SEAT_CHOICES: list[tuple[str, Promise]] = [
    ("me", _("Me")),
    ("bot:greedy", _("Computer (easy)")),
    ("bot:strong", _("Computer (strong)")),
    ("bot:random", _("Computer (beginner)")),
    ("friend", _("A friend (invite link)")),
    ("local", _("Another player on this device")),
]


def parse_options(game: str, data: Any) -> dict[str, Any]:
    """The options the form sent, typed; unknown keys are ignored, bad values are left to the engine."""
    parsed: dict[str, Any] = {}
    for option in GAME_OPTIONS[game].options:
        raw = data.get(option.key)
        if option.kind == "bool":
            parsed[option.key] = raw in ("on", "true", "1")
        elif raw in (None, ""):
            continue
        elif option.kind == "number" or (option.choices and isinstance(option.choices[0][0], int)):
            try:
                parsed[option.key] = int(raw)
            except ValueError:
                parsed[option.key] = raw
        else:
            parsed[option.key] = raw
    return parsed
