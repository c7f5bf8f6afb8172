"""Swiss pairing benchmark (run on demand, not collected by pytest).

    python tests/bench/bench_pairing.py [--players 512] [--rounds 9] [--seed 1] [--quick]

Two-player Swiss (``two_player``, ``quality``): whole events through ``formats`` with the Dutch pairing
(tournaments/pairing/dutch.py; each round's time is the pairing and one computation of the
standings), per field size: repeats, floaters (against a brute-force least on small fields), the
widest score gap of a pair, second byes, seat balance and the time per round; the cornered round (the
bottom ten all met); the agreement with an independent Dutch implementation (``dutch``:
``pairing_dutch.py``). Tables (``four_player``: a whole event at 512 through ``tables.seat_tables``;
``tables``: the issue #31 fields, ``pairing_tables.py``). Double elimination's drop-in orders
(``brackets``: ``pairing_brackets.py``). Figures are appended to ``tests/bench/results/pairing.txt``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import pairing_brackets, pairing_dutch, pairing_tables  # noqa: E402
from tournaments import formats  # noqa: E402
from tournaments.log import Entrant, GameRecord, Result, Round, Table, Tournament  # noqa: E402
from tournaments.pairing import dutch  # noqa: E402
from tournaments.pairing.tables import seat_tables  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "pairing.txt"


def ranked_by(scores: dict[int, float]) -> list[int]:
    # Entrant number doubles as the seed: the natural tie-break inside a score group.
    return sorted(scores, key=lambda p: (-scores[p], p))


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


# -- two-player Swiss: the Dutch pairing over whole events ------------------------------------------------

# Field sizes, rounds and events of the quality comparison; brute force on fields up to BRUTE players.
FIELDS = ((12, 7, 20), (17, 7, 10), (40, 7, 6), (64, 8, 4), (128, 8, 3), (200, 9, 2), (512, 9, 1))
BRUTE = 17
WITHDRAW = 0.01  # each entrant's chance to withdraw after a round
PAIRERS: dict[str, Callable[[Tournament], formats.Pairing | None]] = {"new": formats.next_round}


def two_player_event(players: int, rounds: int, seed: int, pairer: str) -> dict[str, Any]:
    """One Swiss event through ``formats``, results drawn at random: the better seed wins 55 %, 10 %
    draws; 1 % of the entrants withdraw after each round. Per round: the time (cpu s, wall s) of the
    pairing and one computation of the standings (which the projection makes after every command;
    the pairing counts match points from the results),
    and the pairing's figures (``round_figures``); at the end the seat figures."""
    rng = random.Random(seed)
    t = Tournament(name="bench", game="kazino", format="swiss", options={"rounds": rounds}, status="running")
    for e in range(1, players + 1):
        t.entrants[e] = Entrant(e, f"p{e}")
    t.seeding = list(range(1, players + 1))
    times, figures = [], []
    for number in range(1, rounds + 1):
        before = formats.swiss_players(t)
        cpu, wall = time.process_time(), time.perf_counter()
        pairing = PAIRERS[pairer](t)
        assert pairing is not None
        formats.standings(t)  # as the projection does after every command
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
        brute = players <= BRUTE
        figures.append(round_figures(before, pairing, brute=brute, last_round=number == rounds))
        if brute and pairing_dutch.available():  # the reference's floaters on the same state
            theirs, _bye = pairing_dutch.reference(before, number, rounds)
            figures[-1]["reference"] = pairing_dutch.floaters(before, theirs)
        tables = []
        for key, (a, b) in pairing.tables:
            roll = rng.random()
            favourite, other = (a, b) if a < b else (b, a)
            places = (
                {a: 1, b: 1}
                if roll < 0.1
                else {favourite: 1, other: 2}
                if roll < 0.65
                else {favourite: 2, other: 1}
            )
            game = GameRecord(number * 10_000 + len(tables), 1, [a, b], places, {})
            tables.append(Table(key, number, [a, b], games=[game], computed=Result(places, {})))
        t.rounds.append(Round(number, tables, list(pairing.byes), started=True))
        for e in t.active():
            if number < rounds and rng.random() < WITHDRAW:
                t.entrants[e].withdrawn = True
    return {"times": times, "rounds": figures, "seats": seat_figures(t)}


def round_figures(
    before: list[dutch.Player], pairing: formats.Pairing, brute: bool, last_round: bool = False
) -> dict[str, Any]:
    """Repeats; floaters (score-group boundaries crossed by the pairs: a player two groups down counts
    twice, as the Dutch system counts a downfloater once per bracket), their lower bound (one per group
    boundary with an odd count above it) and, on small fields, the brute-force least among the
    pairings FIDE's absolute criteria allow with the fewest repeats (same bye); the largest score
    difference of a pair; second byes; seat preferences denied where the other seat order would have
    denied less (allocation faults)."""
    by = {p.id: p for p in before}
    paired = [by[e] for _key, pair in pairing.tables for e in pair]
    levels = sorted({p.score for p in paired}, reverse=True)
    group = {p.id: levels.index(p.score) for p in paired}
    sizes = [sum(1 for p in paired if p.score == s) for s in levels]
    bound = sum(sum(sizes[: k + 1]) % 2 for k in range(len(sizes) - 1))
    pairs = [(by[a], by[b]) for _key, (a, b) in pairing.tables]
    faults = sum(_seat_fault(a, b) for a, b in pairs)
    return {
        "repeats": sum(1 for a, b in pairs if b.id in a.met),
        "floaters": sum(abs(group[a.id] - group[b.id]) for a, b in pairs),
        "bound": bound,
        "least": _least_floaters(paired, group, last_round) if brute else None,
        "reference": None,
        "spread": float(max((abs(a.score - b.score) for a, b in pairs), default=0)),
        "second_byes": sum(1 for e in pairing.byes if by[e].byes),
        "faults": faults,
    }


def _seat_fault(first: dutch.Player, second: dutch.Player) -> bool:
    """Whether the other seat order would have denied less: the strengths of the seat preferences each
    order denies, strongest first, compared."""

    def denied(a: dutch.Player, b: dutch.Player) -> list[int]:
        """The strengths denied when ``a`` sits first and ``b`` second."""
        pref_a, level_a, _ = dutch.seat_preference(a.seats)
        pref_b, level_b, _ = dutch.seat_preference(b.seats)
        out = [level_a] if pref_a == dutch.SECOND else []
        out += [level_b] if pref_b == dutch.FIRST else []
        return sorted(out, reverse=True)

    return denied(first, second) > denied(second, first)


def _least_floaters(players: list[dutch.Player], group: dict[Hashable, int], last_round: bool = False) -> int:
    """The fewest floaters (boundaries crossed) of any pairing with the fewest breaches of FIDE's
    absolute criteria, in their order: C1, no repeat, and C3, no two players who both need the same seat absolutely
    (in the last round a topscorer, over half the points possible, may): a dynamic programme over
    subsets (fine up to some 20 players). Without C3 the least is below what the Dutch system (ours
    and the reference's alike) may reach: two players who both had seat 1 twice running cannot meet."""
    n = len(players)
    big = 1000
    prefs = [dutch.seat_preference(p.seats) for p in players]
    played = max((len(p.seats) for p in players), default=0)
    top = [last_round and 2 * p.score > played for p in players]

    def breaches(i: int, j: int) -> int:
        repeat = players[j].id in players[i].met
        (pi, li, _), (pj, lj, _) = prefs[i], prefs[j]
        c3 = li == lj == dutch.ABSOLUTE and pi == pj and not (top[i] or top[j])
        return big * big * repeat + big * c3  # C1 before C3, as the Dutch system weighs them

    cost = [
        [breaches(i, j) + abs(group[players[i].id] - group[players[j].id]) for j in range(n)]
        for i in range(n)
    ]
    memo: dict[int, int] = {0: 0}

    def best(mask: int) -> int:
        known = memo.get(mask)
        if known is not None:
            return known
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        out = min(cost[i][j] + best(rest & ~(1 << j)) for j in range(n) if rest >> j & 1)
        memo[mask] = out
        return out

    return best((1 << n) - 1) % big


def seat_figures(t: Tournament) -> dict[str, int]:
    """At the end of the event: the widest |seat 0 − seat 1| any player reached, the players ending
    with more than 1, and the players who sat in the same seat three games running."""
    worst, over, three = 0, 0, 0
    for p in formats.swiss_players(t) + [_gone(t, e) for e in t.entrants if t.entrants[e].withdrawn]:
        played = [s for s in p.seats if s is not None]
        diffs = [abs(played[: k + 1].count(0) - played[: k + 1].count(1)) for k in range(len(played))]
        worst = max([worst, *diffs])
        over += bool(diffs) and diffs[-1] > 1
        three += any(played[k] == played[k + 1] == played[k + 2] for k in range(len(played) - 2))
    return {"worst": worst, "over1": over, "three": three}


def _gone(t: Tournament, e: int) -> dutch.Player:
    """A withdrawn entrant's seats (swiss_players lists the active ones)."""
    seats = []
    for rnd in t.rounds:
        seat = next((table.entrants.index(e) for table in rnd.tables if e in table.entrants), None)
        seats.append(seat)
    return dutch.Player(e, 0, 0, tuple(seats))


def two_player_quality(fields: Sequence[tuple[int, int, int]] = FIELDS) -> list[dict[str, Any]]:
    """Per field size, the Dutch pairing over the events: totals of the round
    figures, the seat figures summed over the events, and the time per round."""
    rows = []
    for players, rounds, events in fields:
        row: dict[str, Any] = {"players": players, "rounds": rounds, "events": events}
        for pairer in PAIRERS:
            runs = [two_player_event(players, rounds, seed, pairer) for seed in range(events)]
            figures = [f for run in runs for f in run["rounds"]]
            least = [f["least"] for f in figures]
            row[pairer] = {
                "repeats": sum(f["repeats"] for f in figures),
                "floaters": sum(f["floaters"] for f in figures),
                "bound": sum(f["bound"] for f in figures),
                "above_least": None if None in least else sum(f["floaters"] - f["least"] for f in figures),
                # Floaters above the reference's, summed over the rounds where ours has more.
                "above_reference": None
                if any(f["reference"] is None for f in figures)
                else sum(max(0, f["floaters"] - f["reference"]) for f in figures),
                "spread": max(f["spread"] for f in figures),
                "second_byes": sum(f["second_byes"] for f in figures),
                "faults": sum(f["faults"] for f in figures),
                "worst_seat": max(run["seats"]["worst"] for run in runs),
                "over1": sum(run["seats"]["over1"] for run in runs),
                "three": sum(run["seats"]["three"] for run in runs),
                "round_repeats": [f["repeats"] for f in figures],
                "cpu": [c for run in runs for c, _w in run["times"]],
                "wall": [w for run in runs for _c, w in run["times"]],
            }
        rows.append(row)
        print(f"  {quality_line(row)}", flush=True)
    return rows


def quality_line(row: dict[str, Any]) -> str:
    def one(f: dict[str, Any]) -> str:
        above = "" if f["above_least"] is None else f" ({f['above_least']} above the brute-force least"
        above += "" if f.get("above_reference") is None else f", {f['above_reference']} above the reference's"
        above += ")" if above else ""
        return (
            f"repeats {f['repeats']}, floaters {f['floaters']}{above} (bound {f['bound']}), widest score "
            f"gap {f['spread']:g}, second byes {f['second_byes']}, worst |seat0-seat1| {f['worst_seat']}, "
            f"ending >1 {f['over1']}, same seat 3 running {f['three']}, seat faults {f['faults']}, "
            f"worst round {1000 * (f['worst_wall'] if 'worst_wall' in f else max(f['wall'])):.0f} ms wall"
        )

    head = f"two-player swiss, {row['players']} players, {row['rounds']} rounds x {row['events']} events"
    return f"{head}: {one(row['new'])}"


def cornered(players: int, stuck: int = 10) -> dict[str, tuple[float, float, int]]:
    """One round where the ``stuck`` players at the bottom have all met each other already, so each
    must float up to someone higher. (cpu s, wall s, repeats)."""
    scores = {p: 3.0 if p < players - stuck else 0.0 for p in range(players)}
    bottom = set(range(players - stuck, players))
    met: dict[Hashable, set[Hashable]] = {p: (bottom - {p} if p in bottom else set()) for p in scores}
    field = [dutch.Player(p, scores[p], p + 1, met=frozenset(met[p])) for p in scores]
    cpu, wall = time.process_time(), time.perf_counter()
    new = dutch.pair(field).pairs
    return {"new": (time.process_time() - cpu, time.perf_counter() - wall, sum(b in met[a] for a, b in new))}


def cornered_line(players: int, figures: dict[str, tuple[float, float, int]], stuck: int = 10) -> str:
    return f"two-player swiss, {players} players, bottom {stuck} all met: " + "; ".join(
        f"{name} {1000 * cpu:.0f} ms cpu ({1000 * wall:.0f} wall), repeats {repeats}"
        for name, (cpu, wall, repeats) in figures.items()
    )


def measure(players: int = 512, rounds: int = 9, seed: int = 1, quick: bool = False) -> dict[str, Any]:
    """The two-player comparison per field size (``quality``; its largest field gives each round's
    time with the standings, ``two_player``), the cornered
    round, and each round's time of a Swiss at tables of four."""
    fields = [f for f in FIELDS if f[0] <= players]
    if quick:
        fields = [(n, r, max(1, e // 5)) for n, r, e in fields]
    if not fields or fields[-1][0] != players:
        fields.append((players, rounds, 1))
    quality = two_player_quality(fields)
    largest = quality[-1]

    def per_round(f: dict[str, Any]) -> list[list[float]]:
        return [[c, w, r] for c, w, r in zip(f["cpu"], f["wall"], f["round_repeats"], strict=True)]

    two_player = per_round(largest["new"])
    for row in quality:  # beyond the largest field, only the worst round's time is kept
        for who in PAIRERS:
            f = row[who]
            f["worst_wall"], f["worst_cpu"] = max(zip(f.pop("wall"), f.pop("cpu"), strict=True))
            del f["round_repeats"]
    return {
        "players": players,
        "rounds": largest["rounds"],
        "two_player": two_player,
        "quality": quality,
        "four_player": four_player(players, rounds, random.Random(seed)),
        "cornered": cornered(players),
        "tables": pairing_tables.measure(seeds=3 if quick else 10),  # issue #31: multi-player Swiss
        "dutch": pairing_dutch.measure(seeds=2 if quick else 8),  # against an independent Dutch
        "brackets": pairing_brackets.measure(events=300 if quick else 2000),
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
    parser.add_argument("--quick", action="store_true", help="fewer events per field size")
    parser.add_argument("--label", default="", help="a note for the results block (e.g. before/after)")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    note = f", {args.label}" if args.label else ""
    lines = [
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.python_version()}, {platform.machine()}, "
        f"cpus {os.cpu_count()}, load {load:.1f}{note}"
    ]
    n, r = args.players, args.rounds
    figures = measure(n, r, args.seed, args.quick)
    lines += [quality_line(row) for row in figures["quality"]]
    rounds = figures["rounds"]
    lines.append(
        report(f"two-player swiss new + standings, {n} players, {rounds} rounds", figures["two_player"])
    )
    lines.append(report(f"seat_tables size 4, {n} players, {r} rounds", figures["four_player"]))
    lines.append(cornered_line(n, figures["cornered"]))
    lines += pairing_tables.lines(figures["tables"])
    lines += pairing_dutch.lines(figures["dutch"])
    lines += pairing_brackets.lines(figures["brackets"])
    text = "\n".join(lines)
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:
        out.write(text + "\n\n")


if __name__ == "__main__":
    main()
