"""How long a game lasts, in moves and minutes: measured from finished games, simulated before then.

A game's length depends on its engine and on the options that change how long it runs (players,
variant, target, match, partnerships, a hand limit): its *length key* (``length_key``), the
config without who deals or leads first, a stacked deck or a small bonus.

- ``measured(engine)``: the finished games of that engine, each with its length key, its number of
  moves (commands by a seat, ``seat:N``, or a computer, ``bot:N``) and its minutes (first to last event), and
  whether only people sat at it. Only whole single games count: a table that took a move back,
  restarted, went on to a new game or was stopped (abandoned) is left out. Computed from the
  store on demand and cached for ``CACHED`` seconds (an estimate may be a few minutes behind; a
  busy site must not read hundreds of games' events each time a game ends).
- ``simulated()``: the table ``estimate_game_lengths`` writes (``games/data/game_lengths.json``,
  committed): the median number of moves of games between computer players (level ``greedy``,
  "Easy") for each config the forms offer.

What to make of them (how many are enough, the pace of a move) is ``tournaments.estimate``'s.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Iterator
from dataclasses import astuple, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Exists, Max, Min, OuterRef, Q

from games import bots, engines
from games.engines.base import Config
from games.eventlog import timeline
from games.models import Event, Game, Seat

DATA = Path(__file__).resolve().parents[1] / "data" / "game_lengths.json"
#: Options that do not change how long a game runs: who deals or leads first, a stacked deck, a bonus.
IGNORED = frozenset({"deck", "first", "dealer", "kings_aces_bonus"})
#: Options a length scales with when the simulations did not play that value (see ``simulated_moves``).
SCALED = ("target", "max_hands")
#: How many recent finished games of an engine are read, and for how long the figures are kept.
RECENT = 500
CACHED = 600
SIMULATION_LEVEL = "greedy"
#: Table events after which a log is no longer one whole game played through.
NOT_WHOLE = (timeline.UNDO, timeline.REDO, timeline.RESTART, timeline.NEW_GAME, timeline.ABANDON)


def length_key(config: Config) -> str:
    """The options of ``config`` that decide how long its games are, as canonical JSON."""
    return json.dumps({k: v for k, v in config.items() if k not in IGNORED}, sort_keys=True)


@dataclass(frozen=True)
class Played:
    """One finished game: its length key, moves, seconds from its first to its last event, and
    whether only people played it (their pace is a tournament's; computers move in a second)."""

    key: str
    moves: int
    seconds: float
    people_only: bool


def measured(engine: str, *, fresh: bool = False) -> list[Played]:
    """The recent finished games of ``engine`` (at most ``RECENT``), newest first; read from the
    store at most every ``CACHED`` seconds (``fresh``: now)."""
    # Plain tuples in the shared cache, not pickled ``Played``s: a pickle names its class's module, so
    # the entries written before this module moved (#32) failed to load after it (hence the new key).
    key = f"game-lengths:2:{engine}"
    rows = None if fresh else cache.get(key)
    if rows is None:
        rows = [astuple(played) for played in _read(engine)]
        cache.set(key, rows, CACHED)
    return [Played(*row) for row in rows]


def _read(engine: str) -> list[Played]:
    broken = Event.objects.filter(game=OuterRef("pk"), type__in=NOT_WHOLE)
    computer = Seat.objects.filter(game=OuterRef("pk")).exclude(bot_level="")
    rows = (
        Game.objects.listed()
        .filter(engine=engine, status=Game.Status.FINISHED)
        .exclude(Exists(broken))
        .annotate(
            first=Min("events__created_at"),
            last=Max("events__created_at"),
            moves=Count(
                "events",
                filter=(Q(events__actor__startswith="seat:") | Q(events__actor__startswith="bot:"))
                & Q(events__cmd_index=0),
            ),
            computers=Exists(computer),
        )
        .order_by("-finished_at", "-pk")[:RECENT]
    )
    return [
        Played(length_key(g.config), g.moves, (g.last - g.first).total_seconds(), not g.computers)
        for g in rows
        if g.moves and g.first is not None and g.last is not None
    ]


# --- Simulations ------------------------------------------------------------------------------------


def simulated_configs() -> list[Config]:
    """Every config the forms offer with the rules' defaults: each player count, variant, match mode
    and Pitch target, partnerships (other targets and hand limits are scaled from these)."""
    from games.engines.dominoes.config import VARIANTS
    from games.engines.pitch.config import TARGETS

    chosen: list[tuple[str, dict[str, Any], int]] = []
    chosen += [("skyjo", {}, n) for n in range(2, 9)]
    for variant in VARIANTS:
        chosen += [("dominoes", {"variant": variant}, n) for n in (2, 3, 4)]
        chosen.append(("dominoes", {"variant": variant, "partnerships": True}, 4))
    chosen += [("kazino", {"match": match}, 2) for match in ("target", "single")]
    for target in TARGETS:
        chosen += [("pitch", {"target": target}, n) for n in range(2, 8)]
        chosen.append(("pitch", {"target": target, "partnerships": True}, 4))
    return [{"game": game, **engines.compose(game, options, n)} for game, options, n in chosen]


def play_out(engine_name: str, config: Config, seed: int, level: str = SIMULATION_LEVEL) -> tuple[int, int]:
    """One game between computer players of ``level``, engine and bots alone: (moves, hands)."""
    engine = engines.get(engine_name)
    players = [bots.get(engine_name, level) for _ in range(config["players"])]
    rng = random.Random(seed)
    state = engine.replay(engine.start(config, seed))
    moves = 0
    while seats := engine.to_act(state):
        seat = seats[0]
        action = players[seat].choose(engine.view(state, seat), engine.legal_actions(state, seat), rng)
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
        moves += 1
    return moves, int(engine.view(state, None).get("hand") or 1)


def simulate(engine_name: str, config: Config, games: int, seed: int = 1) -> dict[str, Any]:
    """The figures of ``games`` simulated games of one config, for the stored table."""
    played = [play_out(engine_name, config, seed + i) for i in range(games)]
    moves = sorted(m for m, _h in played)
    return {
        "engine": engine_name,
        "key": json.loads(length_key(config)),
        "games": games,
        "moves": statistics.median(moves),
        "moves_p90": moves[min(len(moves) - 1, int(0.9 * len(moves)))],
        "hands": statistics.median(h for _m, h in played),
    }


@lru_cache(maxsize=1)
def simulated() -> dict[str, Any]:
    """The stored table of simulated lengths (empty when it has not been generated)."""
    if not DATA.exists():
        return {"rows": []}
    loaded: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return loaded


def _rows(engine: str, table: dict[str, Any]) -> Iterator[dict[str, Any]]:
    return (row for row in table.get("rows", []) if row["engine"] == engine)


def simulated_moves(engine: str, config: Config, table: dict[str, Any] | None = None) -> float | None:
    """The median moves of simulated games of this config. A target (or hand limit) the simulations
    did not play is scaled from the nearest one played with the same other options: games last
    about in proportion to the points to reach (a game to 500 is five of 100), and a hand limit
    below the usual number of hands cuts the game short in proportion. None if nothing is close."""
    table = simulated() if table is None else table
    wanted = json.loads(length_key(config))
    others = {k: v for k, v in wanted.items() if k not in SCALED}
    near = [
        row
        for row in _rows(engine, table)
        if {k: v for k, v in row["key"].items() if k not in SCALED} == others
    ]
    exact = next((row for row in near if row["key"] == wanted), None)
    if exact is not None:
        return float(exact["moves"])
    if not near:
        return None
    target = wanted.get("target")
    if isinstance(target, int) and all(isinstance(r["key"].get("target"), int) for r in near):
        row = min(near, key=lambda r: abs(r["key"]["target"] - target))
        moves = float(row["moves"]) * target / row["key"]["target"]
        hands = float(row["hands"]) * target / row["key"]["target"]
    else:
        row = near[0]
        moves, hands = float(row["moves"]), float(row["hands"])
    limit = wanted.get("max_hands")
    if isinstance(limit, int) and limit < hands:
        moves *= limit / hands
    return moves
