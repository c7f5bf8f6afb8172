"""What the benchmarks share (tests/bench/; not collected by pytest): machine facts, percentiles, rates,
scratch PostgreSQL databases, and bot move times through the engines' public contract.

Importable both as ``tests.bench.benchlib`` (bin/bench, run_all.py) and as ``benchlib`` (a script run
on its own: its folder is first on ``sys.path``).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Players at the table when the bots' move times are measured (pitch is mostly played by four).
BOT_TABLE_PLAYERS = {"skyjo": 2, "dominoes": 2, "kazino": 2, "pitch": 4}


def load() -> tuple[float, float, float]:
    return os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3


def machine() -> dict[str, Any]:
    """The facts a figure depends on: when, where, and how busy the machine was."""
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "system": f"{platform.system()} {platform.release()}",
        "load": load(),
    }


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (``score`` wins, draws counted half, out of ``n``)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Results:
    """A run's lines: printed as they come, appended to the benchmark's results file by ``save``."""

    def __init__(self, path: Path, header: str) -> None:
        self.path, self.lines = path, [header]

    def say(self, line: str) -> None:
        print(line, flush=True)
        self.lines.append(line)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write("\n".join(self.lines) + "\n\n")


def doc_parser(doc: str | None) -> argparse.ArgumentParser:
    """A command-line parser whose ``--help`` is the benchmark's docstring, as written."""
    return argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)


def print_report(doc: str | None, measure: Callable[..., Any], lines: Callable[[Any], list[str]]) -> None:
    """A report script's command line: an integer option for each of ``measure``'s integer keywords
    (``--seeds 8``, its default), then ``lines(measure(...))`` printed."""
    import inspect

    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    for name, param in inspect.signature(measure).parameters.items():
        if isinstance(param.default, int):
            parser.add_argument(f"--{name}", type=int, default=param.default)
    print("\n".join(lines(measure(**vars(parser.parse_args())))))


def game_bench_parser(doc: str, seconds: float, moves: int, match_help: str) -> argparse.ArgumentParser:
    """The options every game's benchmark takes: ``--seconds`` a measured rate, ``--match`` games (0:
    none), ``--moves`` timed per bot level; its caller adds its own."""
    parser = doc_parser(doc)
    parser.add_argument("--seconds", type=float, default=seconds, help="wall-clock seconds per measured rate")
    parser.add_argument("--match", type=int, default=0, help=match_help)
    parser.add_argument("--moves", type=int, default=moves, help="moves timed per bot level")
    return parser


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q <= 1): the smallest value with at least q of them at or below."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = math.ceil(q * len(ordered) - 1e-9)  # 0.95 * 100 is 95.00000000000001 in floating point
    return ordered[min(len(ordered), max(1, rank)) - 1]


def median_time(work: Callable[[], object], repeats: int) -> float:
    """The median wall-clock seconds of ``repeats`` runs of ``work``."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def rate(run_one: Callable[[int], object], seconds: float, minimum: int = 1) -> tuple[float, float, int]:
    """(runs per CPU second, runs per wall second, runs) over about ``seconds`` of wall clock.

    Per CPU second (``process_time``) stays comparable when other work shares the machine."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    n = 0
    while time.perf_counter() - wall0 < seconds or n < minimum:
        run_one(n)
        n += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return n / max(cpu, 1e-9), n / max(wall, 1e-9), n


def random_game(engine: Any, config: dict[str, Any], seed: int, rng: random.Random) -> list[dict[str, Any]]:
    """One game of random moves through the engine's public contract (the first seat to act moves);
    its events."""
    events = engine.start(config, seed)
    state = engine.replay(events)
    while seats := engine.to_act(state):
        seat = seats[0]
        new = engine.decide(state, seat, rng.choice(engine.legal_actions(state, seat)))
        for event in new:
            state = engine.apply(state, event)
        events.extend(new)
    return events


def games_rate(game: str, config: dict[str, Any], seconds: float, seed: int = 1) -> dict[str, Any]:
    """Random full games per CPU second and per wall second of one engine and configuration."""
    from games import engines

    engine = engines.get(game)
    config = engine.validate_config(config)
    rng = random.Random(seed)
    moves = [0]

    def one(n: int) -> None:
        events = random_game(engine, config, seed * 100_003 + n, rng)
        moves[0] += len(events)

    cpu_rate, wall_rate, n = rate(one, seconds, minimum=3)
    return {
        "game": game,
        "config": config,
        "cpu_rate": cpu_rate,
        "wall_rate": wall_rate,
        "games": n,
        "events_per_game": moves[0] / n,
    }


def replay_rate(game: str, logs: list[list[dict[str, Any]]], seconds: float) -> dict[str, Any]:
    """``engine.replay`` over whole logs, again and again for about ``seconds``: events per CPU second."""
    from games import engines

    engine = engines.get(game)
    folded = [0]

    def one(n: int) -> None:
        log = logs[n % len(logs)]
        engine.replay(log)
        folded[0] += len(log)

    cpu_rate, wall_rate, n = rate(one, seconds, minimum=len(logs))
    return {
        "game": game,
        "events_per_cpu_s": cpu_rate * folded[0] / n,
        "events_per_wall_s": wall_rate * folded[0] / n,
        "events": folded[0],
        "replays": n,
        "mean_log": folded[0] / n,
    }


class BotGame(NamedTuple):
    outcome: dict[str, Any]
    times: list[list[float]]  # each seat's move times, wall clock (s)
    cpu: list[float]  # each seat's CPU seconds in all


def bot_game(
    engine: Any,
    seated: list[Any],
    config: dict[str, Any],
    seed: int,
    rng: random.Random | None = None,
    *,
    any_seat: bool = False,
) -> BotGame:
    """One whole game between bots (seat i plays ``seated[i]``) through the engine contract, each
    choice timed. The first seat to act moves, or with ``any_seat`` one drawn from ``rng`` among those
    that may; ``rng`` (default: seeded with ``seed``) is also the bots' own."""
    rng = rng or random.Random(seed)
    state = engine.replay(engine.start(config, seed))
    times: list[list[float]] = [[] for _ in seated]
    cpu = [0.0 for _ in seated]
    while seats := engine.to_act(state):
        seat = rng.choice(seats) if any_seat else seats[0]
        view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        action = seated[seat].choose(view, legal, rng)
        times[seat].append(time.perf_counter() - wall0)
        cpu[seat] += time.process_time() - cpu0
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
    outcome = engine.outcome(state)
    assert outcome is not None
    return BotGame(outcome, times, cpu)


def bot_move_times(
    game: str,
    level: str,
    moves: int,
    *,
    opponent: str = "greedy",
    players: int | None = None,
    seed: int = 500,
    max_games: int = 50,
    config: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Time ``level``'s moves in whole games of ``game`` against ``opponent`` (seats alternate
    between the two levels, the first seat swapping every game) until at least ``moves`` of its
    moves are timed. Only ``engines.get``, ``bots.get`` and the engine contract are used.

    Returns the wall-clock times (s) of each of ``level``'s moves, the CPU seconds they took in all,
    the games played and the load average before and after: strong bots search to a wall-clock
    budget, so a busy machine makes them search less rather than take longer."""
    from games import bots, engines

    engine = engines.get(game)
    if config is None:
        players = players or BOT_TABLE_PLAYERS.get(game, 2)
        config = engine.default_config(players)
    else:
        config = engine.validate_config(config)
        players = config["players"]
    times: list[float] = []
    cpu = 0.0
    games = 0
    load_before = load()
    while len(times) < moves and games < max_games:
        first = games % 2
        levels = [level if (seat + first) % 2 == 0 else opponent for seat in range(players)]
        if level == opponent:
            levels = [level] * players
        played = bot_game(engine, [bots.get(game, lv) for lv in levels], config, seed + games)
        for seat, lv in enumerate(levels):
            if lv == level:
                times += played.times[seat]
                cpu += played.cpu[seat]
        games += 1
    return {
        "game": game,
        "level": level,
        "players": players,
        "opponent": opponent,
        "times": times,
        "cpu": cpu,
        "games": games,
        "load_before": load_before,
        "load_after": load(),
    }


def move_time_line(measured: dict[str, Any]) -> str:
    ms = [1000 * t for t in measured["times"]]
    return (
        f"{measured['level']} move ms ({measured['game']}, {measured['players']} players, vs "
        f"{measured['opponent']}, {len(ms)} moves, {measured['games']} games): "
        f"p50 {percentile(ms, 0.5):.1f}  p95 {percentile(ms, 0.95):.1f}  max {max(ms, default=0):.1f}"
    )


def database_url(name: str) -> str:
    """DATABASE_URL with its database name replaced."""
    return urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}").geturl()


@contextmanager
def scratch_database(suffix: str) -> Iterator[str]:
    """A migrated PostgreSQL database ``<DATABASE_URL's name>_<suffix>`` for this process's Django
    connection (created anew, dropped afterwards); yields its name. DATABASE_URL must be PostgreSQL."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit('set DATABASE_URL to a PostgreSQL database (eval "$(bin/services)" prints one)')
    django_setup()
    from django.conf import settings
    from django.db import connection

    base = settings.DATABASES["default"]["NAME"]
    name = f"{base}_{suffix}"
    settings.DATABASES["default"]["TEST"] = {**settings.DATABASES["default"].get("TEST", {}), "NAME": name}
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        far_game_ids()
        yield name
    finally:
        try:
            connection.creation.destroy_test_db(base, verbosity=0)
        except Exception:  # noqa: BLE001 - a session left on it (a process that did not stop)
            drop_scratch(name)


def drop_scratch(name: str) -> bool:
    """Drop the scratch database ``name``, ending first the sessions left on it (a process of the run
    that did not stop holds some, and a plain DROP then fails). Never raises: a clean-up must not lose a
    run's figures; says so on stderr, and returns False, when the database is still there."""
    import sys

    from django.db import connection

    try:
        with connection.creation._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s"
                " AND pid <> pg_backend_pid()",
                [name],
            )
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
    except Exception as exc:  # noqa: BLE001
        print(f"could not drop the scratch database {name} ({exc!r}): drop it by hand", file=sys.stderr)
        return False
    return True


def far_game_ids() -> None:
    """Start this database's game ids at a random large number. Channel-layer groups are named by game
    id alone (games/live/groups.py): another deployment or test run on the same Redis database with a game 2
    of its own would otherwise talk into (and hear from) a benchmark's game 2."""
    from django.db import connection

    start = random.randrange(10**8, 10**9)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT setval(pg_get_serial_sequence('games_game', 'id'), %s)", [start])
        else:
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = 'games_game'")
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('games_game', %s)", [start])


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
    import django
    from django.apps import apps

    if not apps.ready:
        django.setup()


def migrated_django(sqlite_name: str) -> None:
    """Django set up on ``DATABASE_URL`` and migrated; without one, on a new SQLite file
    ``var/<sqlite_name>.sqlite3`` (the last run's removed first)."""
    if not os.environ.get("DATABASE_URL"):
        db = ROOT / "var" / f"{sqlite_name}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    django_setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
