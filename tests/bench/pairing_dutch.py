"""Two-player Swiss against an independent Dutch implementation (issue #31, deliverable 3).

    python tests/bench/pairing_dutch.py [--seeds 8]

The reference is caissify-pairings (PyPI, `pip install caissify-pairings`; FIDE C.04.3, bbpPairings'
weighted-matching approach): each round of each event, the same state (scores, pairing numbers, seat
histories as colours, floats, byes, who met whom) goes to ``formats.next_round`` and to the
reference, and their pairs are compared. The event goes on with the platform's pairing, results drawn
at random (the better seed wins 55 %, 10 % draws). Fields: 16 to 64 players, 5 to 7 rounds, ``seeds``
events each. Figures: identical pairs (the share of our pairs the reference made too), identical
rounds (every pair and the bye), rounds where ours has more floaters (score-group boundaries crossed)
than the reference's, and each differing round for ``docs/tournaments.md``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import benchlib  # noqa: E402
from tournaments import formats  # noqa: E402
from tournaments.log import Entrant, GameRecord, Result, Round, Table, Tournament  # noqa: E402
from tournaments.pairing import dutch  # noqa: E402

FIELDS = ((16, 5), (17, 5), (24, 6), (31, 6), (40, 7), (47, 7), (56, 7), (64, 7))
PAIRS_GOAL, ROUNDS_GOAL = 0.98, 0.90


def available() -> bool:
    try:
        import caissify_pairings  # noqa: F401
    except ImportError:
        return False
    return True


def reference(
    players: list[dutch.Player], number: int, total: int
) -> tuple[list[tuple[int, int]], int | None]:
    """The reference engine's pairs (white first) and bye for the same state."""
    from caissify_pairings.engines.dutch import dutch_pairings

    raw, previous = [], set()
    for p in players:
        raw.append(
            {
                "id": p.id,
                "name": f"p{p.id}",
                "score": float(p.score),
                "rating": 0,
                "starting_number": p.number,
                "pairing_number": p.number,
                "color_hist": ["white" if s == dutch.FIRST else "black" for s in p.seats if s is not None],
                "float_history": [
                    "down" if f == dutch.DOWN else "up" if f == dutch.UP else "none" for f in p.floats
                ],
                "bye_count": p.byes,
            }
        )
        previous |= {(min(p.id, q), max(p.id, q)) for q in p.met}  # type: ignore[type-var]
    out = dutch_pairings(raw, previous, number, total)
    pairs = [(o["white_id"], o["black_id"]) for o in out if not o.get("bye")]
    return pairs, next((o["white_id"] for o in out if o.get("bye")), None)


def floaters(players: list[dutch.Player], pairs: list[tuple[Any, Any]]) -> int:
    by = {p.id: p for p in players}
    levels = sorted({by[e].score for pair in pairs for e in pair}, reverse=True)
    group = {e: levels.index(by[e].score) for pair in pairs for e in pair}
    return sum(abs(group[a] - group[b]) for a, b in pairs)


def event(players: int, rounds: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    t = Tournament(name="b", game="kazino", format="swiss", options={"rounds": rounds}, status="running")
    for e in range(1, players + 1):
        t.entrants[e] = Entrant(e, f"p{e}")
    t.seeding = list(range(1, players + 1))
    out = []
    for number in range(1, rounds + 1):
        state = formats.swiss_players(t)
        ours = formats.next_round(t)
        assert ours is not None
        mine = [tuple(x) for _k, x in ours.tables]
        bye = ours.byes[0] if ours.byes else None
        theirs, their_bye = reference(state, number, rounds)
        a, b = {frozenset(p) for p in mine}, {frozenset(p) for p in theirs}
        out.append(
            {
                "players": players,
                "seed": seed,
                "round": number,
                "pairs": len(a),
                "same": len(a & b),
                "identical": a == b and bye == their_bye,
                "floaters": floaters(state, mine),
                "reference_floaters": floaters(state, theirs),
                "ours_only": sorted(sorted(p) for p in a - b),
                "theirs_only": sorted(sorted(p) for p in b - a),
                "bye": bye,
                "reference_bye": their_bye,
            }
        )
        tables = []
        for key, (x, y) in ours.tables:
            roll = rng.random()
            fav, other = (x, y) if x < y else (y, x)
            places = {x: 1, y: 1} if roll < 0.1 else {fav: 1, other: 2} if roll < 0.65 else {fav: 2, other: 1}
            game = GameRecord(number * 10_000 + len(tables), 1, [x, y], places, {})
            tables.append(Table(key, number, [x, y], games=[game], computed=Result(places, {})))
        t.rounds.append(Round(number, tables, list(ours.byes), started=True))
    return out


def measure(seeds: int = 8, fields: tuple[tuple[int, int], ...] = FIELDS) -> dict[str, Any]:
    """Per field and in total: identical pairs and rounds, rounds with more floaters; the differences."""
    if not available():
        return {"error": "caissify-pairings is not installed (pip install caissify-pairings)"}
    rows, differences = [], []
    for players, rounds in fields:
        found = [r for seed in range(1, seeds + 1) for r in event(players, rounds, seed)]
        rows.append(
            {
                "players": players,
                "rounds": rounds,
                "seeds": seeds,
                "pairs": sum(r["pairs"] for r in found),
                "same": sum(r["same"] for r in found),
                "round_count": len(found),
                "identical": sum(r["identical"] for r in found),
                "more_floaters": sum(r["floaters"] > r["reference_floaters"] for r in found),
                "fewer_floaters": sum(r["floaters"] < r["reference_floaters"] for r in found),
                "byes_differ": sum(r["bye"] != r["reference_bye"] for r in found),
            }
        )
        differences += [r for r in found if not r["identical"]]
        print(f"  {lines({'fields': rows[-1:]})[0]}", flush=True)
    return {"fields": rows, "differences": differences}


def lines(figures: dict[str, Any]) -> list[str]:
    if "error" in figures:
        return [f"two-player Swiss against the reference: not measured ({figures['error']})"]
    out = [
        f"two-player Swiss {r['players']} players × {r['rounds']} rounds × {r['seeds']} seeds against "
        f"caissify-pairings: identical pairs {100 * r['same'] / r['pairs']:.1f}%, identical rounds "
        f"{100 * r['identical'] / r['round_count']:.1f}%, more floaters in {r['more_floaters']} rounds "
        f"(fewer in {r['fewer_floaters']}), byes differ in {r['byes_differ']}"
        for r in figures["fields"]
    ]
    if len(figures["fields"]) > 1:
        f = figures["fields"]
        pairs, same = sum(r["pairs"] for r in f), sum(r["same"] for r in f)
        count, identical = sum(r["round_count"] for r in f), sum(r["identical"] for r in f)
        out.append(
            f"two-player Swiss against caissify-pairings, all fields: identical pairs {100 * same / pairs:.1f}% "
            f"(goal ≥ {100 * PAIRS_GOAL:.0f}%), identical rounds {100 * identical / count:.1f}% (goal ≥ "
            f"{100 * ROUNDS_GOAL:.0f}%), rounds with more floaters {sum(r['more_floaters'] for r in f)} (goal 0)"
        )
    return out


def main() -> None:
    benchlib.print_report(__doc__, measure, lines)


if __name__ == "__main__":
    main()
