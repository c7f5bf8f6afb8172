"""The options of each game, as the new-table form and the tournament form show them.

One list per game (``GAME_OPTIONS``): a field is (key, kind, label, choices); kinds: "number",
"choice", "bool". Both forms are built from it (``fields``), read with ``parse_options`` (only the
options the player chose; a number left empty is not chosen) and composed by the engine
(``games.engines.compose``), which fills in every option left out with the rules' default *for the
options chosen* (All Fives: 250 with two players, 200 with three or four). So a form never sends a
default: the number fields show it as a placeholder, which follows the other options
(``defaults_table``, ``static/frontend/options.js``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import bounds, engines
from games.engines.base import IllegalAction

TABLES, TOURNAMENTS = "tables", "tournaments"


@dataclass(frozen=True)
class Option:
    key: str
    kind: str
    label: Promise
    choices: list[tuple[Any, Promise | str]] = field(default_factory=list)
    low: int = bounds.TARGET.low
    high: int = bounds.TARGET.high
    # Where the option is offered: a tournament sets partnerships with its own option (two pairs at
    # one table), so the game's own checkbox is for tables only.
    where: tuple[str, ...] = (TABLES, TOURNAMENTS)
    # The same values said for a tournament, where the rules' "against the computer" does not fit.
    tournament_choices: list[tuple[Any, Promise | str]] | None = None

    def choices_in(self, where: str) -> list[tuple[Any, Promise | str]]:
        return self.tournament_choices if where == TOURNAMENTS and self.tournament_choices else self.choices


@dataclass(frozen=True)
class GameOptions:
    players: tuple[int, ...]
    default_players: int
    options: list[Option]

    def offered(self, where: str) -> list[Option]:
        return [o for o in self.options if where in o.where]


PARTNERSHIPS = Option(
    "partnerships", "bool", _("Partnerships (4 players: seats 1 and 3 against 2 and 4)"), where=(TABLES,)
)

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
            PARTNERSHIPS,
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
                tournament_choices=[
                    ("target", _("A match: first to 160")),
                    ("single", _("One game")),
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
            PARTNERSHIPS,
            # Not in the rules (play goes on until a pitcher reaches the target): off unless asked.
            Option(
                "max_hands",
                "number",
                _("Stop after this many hands (empty: no limit)"),
                low=bounds.MAX_HANDS.low,
                high=bounds.MAX_HANDS.high,
            ),
        ],
    ),
}

# Whether a new table is rated or casual (games.models.Game.Kind; docs/security.md "Rated and
# casual"). Kazino's rules count every online game in the ranking (../shared/rules/kazino.md,
# "Matches"), so its form starts on rated; the other games start on casual.
RATED_BY_DEFAULT = frozenset({"kazino"})
TABLE_KINDS = ("rated", "casual")

# The computer levels by the glossary's names (games/words/computers.py), weakest first.
SEAT_CHOICES: list[tuple[str, Promise]] = [
    ("me", _("Me")),
    ("bot:random", _("Computer (Beginner)")),
    ("bot:greedy", _("Computer (Easy)")),
    ("bot:strong", _("Computer (Strong)")),
    ("bot:expert", _("Computer (Expert)")),
    ("friend", _("A friend (invite link)")),
    ("open", _("Anyone signed in (an open seat in the lobby)")),
    ("local", _("Another player on this device")),
]


def _is_int_choice(option: Option) -> bool:
    return bool(option.choices) and isinstance(option.choices[0][0], int)


def parse_options(game: str, data: Any, *, prefix: str = "", where: str = TABLES) -> dict[str, Any]:
    """The options the form sent (fields named ``prefix + key``), typed: only those offered there,
    and only those chosen (an empty number is left to the engine); bad values are left to the engine."""
    parsed: dict[str, Any] = {}
    for option in GAME_OPTIONS[game].offered(where):
        raw = data.get(prefix + option.key)
        if option.kind == "bool":
            parsed[option.key] = raw in ("on", "true", "1")
        elif raw in (None, ""):
            continue
        elif option.kind == "number" or _is_int_choice(option):
            # Read as bounds.read_int reads numbers ("²" and 5,000 digits are no number); a text that
            # is none is left as it is for the engine to refuse with its own sentence.
            number = bounds.read_int(raw)
            parsed[option.key] = raw if number is None else number
        else:
            parsed[option.key] = raw
    return parsed


def _composed(game: str, chosen: dict[str, Any], players: int) -> dict[str, Any] | None:
    try:
        return engines.compose(game, chosen, players)
    except IllegalAction:
        return None  # not a table (partnerships with three players): nothing to show


def defaults_table(game: str, players: list[int], where: str = TABLES) -> list[dict[str, Any]]:
    """The rules' default of each number option for every choice the form offers: a list of
    ``{"when": {"players": n, option: value, ...}, "defaults": {option: value}}`` the form's script
    reads to show the default of the options chosen (no default is ever sent: the engine fills it)."""
    offered = GAME_OPTIONS[game].offered(where)
    choosers = [o for o in offered if o.kind in ("choice", "bool")]
    numbers = [o for o in offered if o.kind == "number"]
    if not numbers:
        return []
    ranges = [[v for v, _text in o.choices] if o.kind == "choice" else [False, True] for o in choosers]
    table = []
    for n in players:
        for values in itertools.product(*ranges):
            chosen = {o.key: v for o, v in zip(choosers, values, strict=True)}
            config = _composed(game, chosen, n)
            if config is not None:
                defaults = {o.key: config.get(o.key) for o in numbers}
                table.append({"when": {"players": n, **chosen}, "defaults": defaults})
    return table


def fields(game: str, where: str, players: int, posted: Any = None, prefix: str = "") -> list[dict[str, Any]]:
    """The form fields of a game's options: choices start on the rules' default, numbers are empty
    with the default for the choices shown as their placeholder; ``posted`` (a form sent back with an
    error) keeps what the player chose."""
    offered = GAME_OPTIONS[game].offered(where)
    chosen = parse_options(game, posted, prefix=prefix, where=where) if posted is not None else {}
    config = _composed(game, chosen, players) or _composed(game, {}, players) or {}
    out = []
    for option in offered:
        name = prefix + option.key
        value = chosen.get(option.key, config.get(option.key))
        item: dict[str, Any] = {
            "key": option.key,
            "name": name,
            "id": f"option-{name}",
            "kind": option.kind,
            "label": option.label,
            "low": option.low,
            "high": option.high,
        }
        if option.kind == "choice":
            item["choices"] = [(v, text, v == value) for v, text in option.choices_in(where)]
        elif option.kind == "bool":
            item["checked"] = bool(value)
        else:
            item["value"] = chosen.get(option.key, "")
            default = config.get(option.key)
            item["placeholder"] = "" if default is None else str(default)
        out.append(item)
    return out
