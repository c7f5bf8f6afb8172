"""Swiss pairing benchmark (run on demand, not collected by pytest).

    python tests/bench/bench_pairing.py [--players 512] [--rounds 9] [--seed 1]

Simulates a whole Swiss event twice, with results drawn at random (the better seed is favoured):
two-player boards through ``swiss.pair_round`` and four-player tables through ``swiss.seat_tables``.
Reports the time of each round's pairing (per CPU second, which stays comparable when other work
shares the machine, and wall clock), the worst round and round 7, and the repeat meetings each
round had to accept. Figures are appended to ``tests/bench/results/pairing.txt``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Hashable
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import pairing_tables  # noqa: E402
from tournaments.pairing.swiss import pair_round, seat_tables  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "pairing.txt"


def ranked_by(scores: dict[int, float]) -> list[int]:
    # Entrant number doubles as the seed: the natural tie-break inside a score group.
    return sorted(scores, key=lambda p: (-scores[p], p))


def two_player(players: int, rounds: int, rng: random.Random) -> list[tuple[float, float, int]]:
    """(cpu s, wall s, repeats) for each round of a two-player Swiss."""
    scores: dict[int, float] = dict.fromkeys(range(players), 0.0)
    met: dict[Hashable, set[Hashable]] = {p: set() for p in scores}
    had_bye: set[Hashable] = set()
    figures = []
    for _ in range(rounds):
        ranked = ranked_by(scores)
        cpu, wall = time.process_time(), time.perf_counter()
        pairs, bye = pair_round(ranked, scores, met, had_bye)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        figures.append((cpu, wall, sum(b in met[a] for a, b in pairs)))
        seated = sorted([x for pair in pairs for x in pair] + ([bye] if bye is not None else []))
        assert seated == list(range(players)), "everyone plays or has the bye"
        if bye is not None:
            had_bye.add(bye)
            scores[bye] += 1  # type: ignore[index]
        for a, b in pairs:
            met[a].add(b)
            met[b].add(a)
            roll = rng.random()
            favourite, other = (a, b) if a < b else (b, a)  # type: ignore[operator]
            if roll < 0.1:
                scores[a] += 0.5  # type: ignore[index]
                scores[b] += 0.5  # type: ignore[index]
            else:
                scores[favourite if roll < 0.65 else other] += 1  # type: ignore[index]
    return figures


def four_player(players: int, rounds: int, rng: random.Random) -> list[tuple[float, float, int]]:
    """(cpu s, wall s, repeats) for each round of a Swiss at tables of four."""
    scores: dict[int, float] = dict.fromkeys(range(players), 0.0)
    met: dict[Hashable, dict[Hashable, int]] = {p: {} for p in scores}
    figures = []
    for _ in range(rounds):
        ranked = ranked_by(scores)
        cpu, wall = time.process_time(), time.perf_counter()
        tables = seat_tables(ranked, 4, scores, met)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        repeats = sum(met[a].get(b, 0) for t in tables for a, b in combinations(t, 2))
        figures.append((cpu, wall, repeats))
        assert sorted(x for t in tables for x in t) == list(range(players)), "everyone is seated"
        for table in tables:
            for a, b in combinations(table, 2):
                met[a][b] = met[a].get(b, 0) + 1
                met[b][a] = met[b].get(a, 0) + 1
            # Better seeds tend to place higher: sort on a noisy strength.
            order = sorted(table, key=lambda p: p + rng.gauss(0, players / 3))  # type: ignore[operator]
            for place, p in enumerate(order):
                scores[p] += len(table) - 1 - place  # type: ignore[index]
    return figures


def cornered(players: int, stuck: int = 10) -> tuple[float, float, int]:
    """One round where the ``stuck`` players at the bottom have all met each other already, so each
    must float up to someone higher: the case a plain depth-first search backtracks over.
    (cpu s, wall s, repeats)."""
    scores = {p: 3.0 if p < players - stuck else 0.0 for p in range(players)}
    bottom = set(range(players - stuck, players))
    met: dict[Hashable, set[Hashable]] = {p: (bottom - {p} if p in bottom else set()) for p in scores}
    cpu, wall = time.process_time(), time.perf_counter()
    pairs, _ = pair_round(list(scores), scores, met, set())
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu, wall, sum(b in met[a] for a, b in pairs)


def cornered_line(players: int, figures: tuple[float, float, int], stuck: int = 10) -> str:
    cpu, wall, repeats = figures
    return (
        f"swiss pair_round, {players} players, bottom {stuck} all met: {1000 * cpu:.0f} ms cpu "
        f"({1000 * wall:.0f} wall); repeats {repeats}"
    )


def measure(players: int = 512, rounds: int = 9, seed: int = 1) -> dict[str, Any]:
    """Each round's pairing time (cpu s, wall s, repeats) of a two-player Swiss and of a Swiss at
    tables of four, and of the cornered round."""
    return {
        "players": players,
        "rounds": rounds,
        "two_player": two_player(players, rounds, random.Random(seed)),
        "four_player": four_player(players, rounds, random.Random(seed)),
        "cornered": cornered(players),
        "tables": pairing_tables.measure(),  # issue #19: multi-player Swiss, new against today's
    }


def report(label: str, figures: list[tuple[float, float, int]]) -> str:
    per_round = " ".join(f"{1000 * cpu:.0f}" for cpu, _, _ in figures)
    worst = max(figures)
    seventh = figures[min(6, len(figures) - 1)]
    return (
        f"{label}: round 7 {1000 * seventh[0]:.0f} ms cpu ({1000 * seventh[1]:.0f} wall), "
        f"worst {1000 * worst[0]:.0f} ms cpu ({1000 * worst[1]:.0f} wall), "
        f"total {sum(f[0] for f in figures):.2f} s cpu; repeats {sum(f[2] for f in figures)}; "
        f"ms cpu per round: {per_round}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--label", default="", help="a note for the results block (e.g. before/after)")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    note = f", {args.label}" if args.label else ""
    lines = [
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.python_version()}, {platform.machine()}, "
        f"cpus {os.cpu_count()}, load {load:.1f}{note}"
    ]
    n, r = args.players, args.rounds
    figures = measure(n, r, args.seed)
    lines.append(report(f"swiss pair_round, {n} players, {r} rounds", figures["two_player"]))
    lines.append(report(f"seat_tables size 4, {n} players, {r} rounds", figures["four_player"]))
    lines.append(cornered_line(n, figures["cornered"]))
    lines += pairing_tables.lines(figures["tables"])
    text = "\n".join(lines)
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:
        out.write(text + "\n\n")


if __name__ == "__main__":
    main()
