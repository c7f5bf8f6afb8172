"""Multi-player Swiss tables (issue #31, deliverable 6): seating by standings, wider tables and fixed
schedules, per field, beside the audit's figures quoted in the issue.

    python tests/bench/pairing_tables.py [--seeds 10] [--rounds 5]

For each field (16, 18 and 22 entrants at tables of 4, and at tables of 3) and each seed, a whole event
of ``rounds`` rounds is played through ``formats.next_round`` with random results (every order of a
table equally likely), once per seating mode: ``standings`` (the default: span ≤ 1), ``wider``
(span ≤ 2) and ``fixed`` (a schedule fixed in advance). Per field and mode, the mean over seeds of:

- the share of tables whose span (standings-tables apart, equal scores interchangeable) is 2 or more;
- repeats: the whole event's pairs at a table that met before, as often as they met;
- spread: highest minus lowest first criterion at a table when it was seated, the mean over tables;
- first seats: the most any player had (and the cap ⌈rounds × tables / entrants⌉);
- rounds the exact search settled (fields up to ``tables.EXACT_UP_TO``: the per-round optimum);
- by standings, the yardstick of the repeat goal on the event's own path: each round, the least repeats
  any seating of that round's standings could have under span ≤ 1 alone (``optimum``), and under span
  ≤ 1 with the last-round rule (``optimum_leader``: the leader's table holds the top standings-table),
  summed over the rounds (the exact search with repeats as the only cost).

Also ``formats.next_round`` for 512 entrants at tables of four, standings included, each round.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import benchlib  # noqa: E402
from tournaments import formats  # noqa: E402
from tournaments.log import RUNNING, Entrant, Result, Round, Table, Tournament  # noqa: E402
from tournaments.pairing import schedule  # noqa: E402
from tournaments.pairing import tables as seating  # noqa: E402
from tournaments.pairing.objective import Objective, Weights  # noqa: E402

FIELDS = ((16, 4), (18, 4), (22, 4), (16, 3), (18, 3), (22, 3))
MODES = ("standings", "wider", "fixed")
#: The audit of issue #31 (10 seeds × 5 rounds on the seating before it): the exact per-round optimum of
#: repeats under span ≤ 1 it found, and the share of players at a table of span ≥ 2 it measured.
AUDIT_OPTIMUM = {(16, 4): 26.7, (18, 4): 15.3, (22, 4): 12.9, (16, 3): 1.4, (18, 3): 3.6, (22, 3): 0.5}
AUDIT_WIDE = {4: "38–45 %", 3: "6–18 %"}
#: The goal: mean repeats at most the exact per-round optimum under span ≤ 1, plus this share.
OPTIMUM_MARGIN = 0.10


def tournament(players: int, size: int, rounds: int, seating_mode: str = "standings") -> Tournament:
    t = Tournament(
        name="bench",
        game="dominoes",
        format="swiss",
        options={"table_size": size, "rounds": rounds, "seating": seating_mode},
    )
    t.status = RUNNING
    t.entrants = {e: Entrant(e, f"P{e}") for e in range(1, players + 1)}
    t.seeding = list(t.entrants)
    return t


def play(t: Tournament, seated: list[list[int]], rng: random.Random, byes: list[int] | None = None) -> None:
    """Record the round with a random order at every table."""
    number = len(t.rounds) + 1
    tables = []
    for i, entrants in enumerate(seated):
        order = list(entrants)
        rng.shuffle(order)
        result = Result({e: place for place, e in enumerate(order, 1)}, {e: Fraction(0) for e in entrants})
        tables.append(Table(f"R{number}-T{i + 1}", number, list(entrants), computed=result))
    t.rounds.append(Round(number, tables, list(byes or []), started=True))


def least_repeats(
    ranked: list[int], size: int, scores: dict[int, float], met: Any, number: int, leader: bool
) -> int:
    """The fewest repeats of any seating of this round's standings under span ≤ 1 (and, with
    ``leader``, the leader's table of the top standings-table only): the exact search, repeats the
    only cost besides the span."""
    sizes = seating.layout(len(ranked), size, number)
    score = {p: float(scores.get(p, 0)) for p in ranked}
    objective = Objective(
        scores=score,
        met=met,
        first={},
        cap=number + 1,
        level=seating.levels(ranked, score, sizes),
        limit=1,
        weights=Weights(even=0.0, spread=0.0, repeat=1.0, over=0.0, span=1e6),
        leader=ranked[0] if leader else None,
    )
    found = seating._exact(ranked, sizes, objective)
    assert found is not None, "the exact search settles the benchmark's fields"
    return sum(objective.repeats(table) for table in found)


def simulate(players: int, size: int, rounds: int, seed: int, mode: str) -> dict[str, Any]:
    """One whole event: spans, repeats, spreads, first seats, rounds settled exactly."""
    rng = random.Random(seed)
    t = tournament(players, size, rounds, mode)
    met: dict[int, Counter[int]] = defaultdict(Counter)
    firsts: Counter[int] = Counter()
    repeats, spreads, wide, count, exact = 0, [], 0, 0, 0
    optimum, optimum_leader = 0, 0
    for number in range(1, rounds + 1):
        rows = formats.standings(t)
        scores = formats._primary(t, rows)
        ranked = formats.ranked_active(t, rows)
        pairing = formats.next_round(t)
        assert pairing is not None
        seated = [entrants for _key, entrants in pairing.tables]
        level = seating.levels(ranked, scores, seating.layout(len(ranked), size, number))
        if mode != "fixed" and players <= seating.EXACT_UP_TO:
            history = formats.seat_history(t)
            again = seating.seat(
                ranked, size, scores, formats._met(t), history=history, span=seating.SPANS[mode]
            )
            exact += again.exact
        if mode == "standings" and players <= seating.EXACT_UP_TO:
            met_now = formats._met(t)
            optimum += least_repeats(ranked, size, scores, met_now, number, False)
            optimum_leader += least_repeats(ranked, size, scores, met_now, number, number == rounds)
        for table in seated:
            repeats += sum(met[a][b] for a, b in combinations(table, 2))
            values = [scores.get(e, 0.0) for e in table]
            spreads.append(max(values) - min(values))
            wide += max(level[e][0] for e in table) - min(level[e][1] for e in table) >= 2
            count += 1
            firsts[table[0]] += 1
        for table in seated:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
        play(t, seated, rng, pairing.byes)
    return {
        "repeats": repeats,
        "spread": sum(spreads) / len(spreads),
        "wide": wide / count,
        "first_max": max(firsts.values()),
        "exact": exact,
        "optimum": optimum,
        "optimum_leader": optimum_leader,
    }


def compare(
    seeds: int = 10, rounds: int = 5, fields: tuple[tuple[int, int], ...] = FIELDS
) -> list[dict[str, Any]]:
    out = []
    for players, size in fields:
        row: dict[str, Any] = {"players": players, "size": size, "rounds": rounds, "seeds": seeds}
        for mode in MODES:
            runs = [simulate(players, size, rounds, seed, mode) for seed in range(1, seeds + 1)]
            row[mode] = {
                "repeats": sum(r["repeats"] for r in runs) / seeds,
                "spread": sum(r["spread"] for r in runs) / seeds,
                "wide": sum(r["wide"] for r in runs) / seeds,
                "first_max": max(r["first_max"] for r in runs),
                "exact": sum(r["exact"] for r in runs),
                "optimum": sum(r["optimum"] for r in runs) / seeds,
                "optimum_leader": sum(r["optimum_leader"] for r in runs) / seeds,
            }
        layout = schedule.sizes(players, size)
        row["least_fixed"] = schedule.least_repeats(players, layout, rounds)
        row["first_cap"] = seating.first_seat_cap(rounds, len(layout), players)
        row["audit_optimum"] = AUDIT_OPTIMUM.get((players, size))
        row["audit_wide"] = AUDIT_WIDE.get(size)
        print(f"  {lines({'fields': [row]})[0]}", flush=True)
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
        pairing = formats.next_round(t)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        assert pairing is not None
        seated = [entrants for _key, entrants in pairing.tables]
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
        modes = "; ".join(
            f"{mode}: span ≥ 2 {100 * row[mode]['wide']:.1f}% of tables, repeats {row[mode]['repeats']:.1f}, "
            f"spread {row[mode]['spread']:.2f}, most first seats {row[mode]['first_max']}"
            + (f", exact {row[mode]['exact']}/{row['seeds'] * row['rounds']}" if mode != "fixed" else "")
            for mode in MODES
        )
        out.append(
            f"tables {row['players']}@{row['size']}, {row['rounds']} rounds × {row['seeds']} seeds: {modes} "
            f"(own path's per-round optimum {row['standings']['optimum']:.1f}, with the last-round rule "
            f"{row['standings']['optimum_leader']:.1f}; fixed's least {row['least_fixed']}, first-seat cap "
            f"{row['first_cap']}, audit's optimum {row['audit_optimum']})"
        )
    if figures.get("timing_512"):
        walls = [wall for _cpu, wall, _r in figures["timing_512"]]
        out.append(
            f"next_round 512@4 (standings included): worst {1000 * max(walls):.0f} ms wall, "
            f"per round {' '.join(f'{1000 * w:.0f}' for w in walls)}"
        )
    return out


def main() -> None:
    benchlib.print_report(__doc__, measure, lines)


if __name__ == "__main__":
    main()
