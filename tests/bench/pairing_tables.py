"""Multi-player Swiss tables (issue #19, deliverables 2 and 3): the new seating beside today's.

    python tests/bench/pairing_tables.py [--seeds 10] [--rounds 5]

For each field of the issue (16, 18 and 22 entrants at tables of 4, and at tables of 3) and each seed,
a whole Swiss of ``rounds`` rounds is played with random results (every order of a table equally
likely), twice from the same seeds:

- **today**: the seating before issue #19, frozen in ``pairing_tables_baseline.py`` (swaps of equal
  scores between tables at most three apart, the best-ranked player at seat 0, short tables at the
  bottom) with today's placement points (a table of n pays n − 1 … 0);
- **new**: ``formats.next_round`` as the platform runs it (``tournaments/pairing/tables.py``, scaled
  placement points, first seats rotated).

Per field, the mean over seeds of: the repeat meetings of the whole event (each pair at a table that
met before, as often as it met), the within-table score spread (highest minus lowest first criterion
at the table when it was seated, averaged over tables and rounds), the most first seats (seat 0) any
player had, and where the short tables' players stood in the ranking when seated (0 the top, 1 the
bottom; today's are always the bottom tables). Also the time
``formats.next_round`` takes for 512 entrants at tables of four (standings included), each round.
Figures are appended to ``tests/bench/results/pairing.txt`` when run on its own.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import pairing_tables_baseline as baseline  # noqa: E402
from tournaments import formats  # noqa: E402
from tournaments import standings as ranking  # noqa: E402
from tournaments.log import RUNNING, Entrant, Result, Round, Table, Tournament  # noqa: E402

FIELDS = ((16, 4), (18, 4), (22, 4), (16, 3), (18, 3), (22, 3))
#: The issue's goals: mean repeats over 10 seeds × 5 rounds, per field.
REPEAT_GOALS = {(16, 4): 8, (18, 4): 7, (22, 4): 2, (16, 3): 1, (18, 3): 1, (22, 3): 1}
SPREAD_GOAL = 2.0  # the mean within-table spread no more than this many times today's
RESULTS = ROOT / "tests" / "bench" / "results" / "pairing.txt"

Seater = Callable[[Tournament], list[list[int]]]


def tournament(players: int, size: int, rounds: int) -> Tournament:
    """A running Swiss at tables of ``size``, entrants 1 … ``players`` seeded in that order."""
    # Dominoes: higher scores win (no game points are recorded anyway).
    t = Tournament(
        name="bench", game="dominoes", format="swiss", options={"table_size": size, "rounds": rounds}
    )
    t.status = RUNNING
    t.entrants = {e: Entrant(e, f"P{e}") for e in range(1, players + 1)}
    t.seeding = list(t.entrants)
    return t


def seat_new(t: Tournament) -> list[list[int]]:
    pairing = formats.next_round(t)
    assert pairing is not None
    return [entrants for _key, entrants in pairing.tables]


def seat_today(t: Tournament) -> list[list[int]]:
    """``formats.next_round`` as it was: unscaled placement points, the frozen ``seat_tables``."""
    return baseline.seat_tables(
        seat_today_ranked(t), formats.table_size(t), primary_today(t), formats._met(t)
    )


def _rows_today(t: Tournament) -> list[ranking.Row[int]]:
    return ranking.standings(list(t.entrants), formats.meetings(t), formats.criteria(t))


def seat_today_ranked(t: Tournament) -> list[int]:
    return formats.ranked_active(t, _rows_today(t))


def primary_today(t: Tournament) -> dict[int, float]:
    return formats._primary(t, _rows_today(t))


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _place(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def play(t: Tournament, seated: list[list[int]], rng: random.Random) -> None:
    """Record the round with a random order at every table."""
    number = len(t.rounds) + 1
    tables = []
    for i, entrants in enumerate(seated):
        order = list(entrants)
        rng.shuffle(order)
        result = Result({e: place for place, e in enumerate(order, 1)}, {e: Fraction(0) for e in entrants})
        tables.append(Table(f"R{number}-T{i + 1}", number, list(entrants), computed=result))
    t.rounds.append(Round(number, tables, started=True))


def simulate(players: int, size: int, rounds: int, seed: int, new: bool) -> dict[str, Any]:
    """One whole event: its repeats, spreads, first seats and short tables."""
    rng = random.Random(seed)
    t = tournament(players, size, rounds)
    met: dict[int, Counter[int]] = defaultdict(Counter)
    firsts: Counter[int] = Counter()
    repeats, spreads, short_places = 0, [], []
    for _ in range(rounds):
        scores = formats._primary(t) if new else primary_today(t)
        ranked = formats.ranked_active(t) if new else seat_today_ranked(t)
        seated = seat_new(t) if new else seat_today(t)
        assert sorted(e for tb in seated for e in tb) == sorted(t.active()), "everyone seated once"
        for table in seated:
            repeats += sum(met[a][b] for a, b in combinations(table, 2))
            values = [scores.get(e, 0.0) for e in table]
            spreads.append(max(values) - min(values))
            firsts[table[0]] += 1
        full = max(len(tb) for tb in seated)
        place = {e: i / (len(ranked) - 1) for i, e in enumerate(ranked)}
        short_places += [place[e] for tb in seated if len(tb) < full for e in tb]
        for table in seated:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
        play(t, seated, rng)
    return {
        "repeats": repeats,
        "spread": sum(spreads) / len(spreads),
        "first_max": max(firsts.values()),
        "short_places": short_places,
    }


def compare(
    seeds: int = 10, rounds: int = 5, fields: tuple[tuple[int, int], ...] = FIELDS
) -> list[dict[str, Any]]:
    """Per field: today's and the new figures, each the mean over ``seeds`` events (and the worst)."""
    out = []
    for players, size in fields:
        row: dict[str, Any] = {"players": players, "size": size, "rounds": rounds, "seeds": seeds}
        for name, new in (("today", False), ("new", True)):
            runs = [simulate(players, size, rounds, seed, new) for seed in range(1, seeds + 1)]
            row[name] = {
                "repeats": sum(r["repeats"] for r in runs) / seeds,
                "repeats_worst": max(r["repeats"] for r in runs),
                "spread": sum(r["spread"] for r in runs) / seeds,
                "first_max": max(r["first_max"] for r in runs),
                "first_mean_max": sum(r["first_max"] for r in runs) / seeds,
                "short_place": _mean([x for r in runs for x in r["short_places"]]),
            }
        row["goal_repeats"] = REPEAT_GOALS.get((players, size))
        row["first_cap"] = math.ceil(rounds / size) + 1
        out.append(row)
    return out


def timing(
    players: int = 512, size: int = 4, rounds: int = 9, seed: int = 1
) -> list[tuple[float, float, int]]:
    """(cpu s, wall s, repeats) of ``formats.next_round`` (standings and seating) for each round."""
    rng = random.Random(seed)
    t = tournament(players, size, rounds)
    met: dict[int, Counter[int]] = defaultdict(Counter)
    figures = []
    for _ in range(rounds):
        cpu, wall = time.process_time(), time.perf_counter()
        seated = seat_new(t)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        figures.append((cpu, wall, sum(met[a][b] for tb in seated for a, b in combinations(tb, 2))))
        for table in seated:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
        play(t, seated, rng)
    return figures


def measure(seeds: int = 10, rounds: int = 5) -> dict[str, Any]:
    """Everything ``bench_pairing.measure`` adds under ``tables``."""
    return {"fields": compare(seeds, rounds), "timing_512": timing()}


def lines(figures: dict[str, Any]) -> list[str]:
    out = []
    for row in figures["fields"]:
        today, new = row["today"], row["new"]
        out.append(
            f"tables {row['players']}@{row['size']}, {row['rounds']} rounds × {row['seeds']} seeds: "
            f"repeats {today['repeats']:.1f} → {new['repeats']:.1f} (goal ≤ {row['goal_repeats']}), "
            f"spread {today['spread']:.2f} → {new['spread']:.2f}, "
            f"most first seats {today['first_max']} → {new['first_max']} (cap {row['first_cap']}), "
            f"short tables' place in the ranking {_place(today['short_place'])} → {_place(new['short_place'])}"
        )
    walls = [wall for _cpu, wall, _r in figures["timing_512"]]
    out.append(
        f"next_round 512@4 (standings included): worst {1000 * max(walls):.0f} ms wall, "
        f"per round {' '.join(f'{1000 * w:.0f}' for w in walls)}"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    text = "\n".join(lines(measure(args.seeds, args.rounds)))
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:
        out.write(text + "\n\n")


if __name__ == "__main__":
    main()
