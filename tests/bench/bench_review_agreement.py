"""Does the engine review agree with the exact answer where one can be known? (issue #35, item 3)

    python tests/bench/bench_review_agreement.py [--quick] [--positions 500]
        [--games pitch,block,draw,kazino,skyjo] [--level expert] [--exact-off]

Positions: seeded playouts of two-player games (greedy and random seats, mixed by the seed) stopped
at a decision of the seat to act (at least two legal actions) where the answer can be known:
Pitch once trump is named and the other hand is small enough to deal every way (its last two or
three tricks), a Block or Draw round whose unseen tiles can be dealt every way (the stock in every
order in Draw), a Kazino game's last deal, a Skyjo seat's last turn (below). One position per hand, round or game, so that they are
spread over many deals. The move "played" at each is chosen at random among the legal ones, so that
both good and bad moves are put to the review.

The exact answer (``replay.exact``): for every legal action, the mean over **every** deal of the
unseen cards consistent with the seat's view (only that view: the other hand with the size the view
shows and the voids it records, the sleeping or stock tiles; every deal counts the same) of the
result once the rest is played with every hand open, both sides at their best — alpha-beta through
the engine's own rules, in the review's units (points). That is perfect-information play after the
deal is fixed, as PIMC values a sample: the issue's "exact expected value over every deal consistent
with the seat's view" under that assumption, not the value of the imperfect-information game.

Then the review's ``evaluate`` (the configured level, default settings) scores the same decision
from the same view. Reported per game: how often the review's best is an exactly-best move (within
1e-9), how many exactly-best moves it flagged (as a mistake; as anything), each with a 95% Wilson
interval, the mean error of the loss it states on flagged moves, and the CPU per position of the
review and of the exact reference. ``--exact-off`` reviews without the exact endgames (the review as
it was before it used them: its own sampled search). With them on (the default), the review scores
these positions with the same ``replay.exact`` as the reference, so agreement is by construction and
the run checks the plumbing (best, loss, label from the exact values). The reference is then not solved
a second time (a deterministic call again would check nothing, at twice the CPU): it reads back the
answer of the review's own call (``Recorder``), and its CPU is that call's. What checks the solver itself is
``tests/replay/test_exact.py`` (positions worked out by hand) and the cross-check reported here: on one
consistent deal per position, each action's value by ``replay.exact`` against the bots' own exact
solvers, written apart (Block: ``dominoes_solve``; Pitch: the Expert's trick-play solve).
``--quick``: 60 positions a game.

Skyjo: a seat's last turn after another seat went out, when the round ends with it (``replay.exact``'s
``Skyjo``: every sequence of values for the seat's hidden cards and the card it would draw, weighted
by the unseen cards; a draw valued by its best follow-up per card drawn, never by the hidden cards).
Before that turn the rest of a round is a long chance tree (draws from a shuffled pile of about a
hundred unseen cards), so no earlier Skyjo decision is knowable. No bot has an exact Skyjo solver to
cross-check with; ``tests/replay/test_exact.py`` has a last turn worked out by hand.

Figures are appended to ``tests/bench/results/review_agreement.txt``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games import engines  # noqa: E402
from games.bots import get as get_bot  # noqa: E402
from tests.bench.benchlib import django_setup, machine, wilson  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "review_agreement.txt"
TIE = 1e-9

#: Per benchmarked game: the engine, the options chosen (two players).
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "pitch": ("pitch", {}),
    "block": ("dominoes", {"variant": "block"}),
    "draw": ("dominoes", {"variant": "draw"}),
    "kazino": ("kazino", {"match": "single"}),
    "skyjo": ("skyjo", {}),
}


def unit(engine: Any, state: Any) -> tuple[int, int]:
    """Which hand, round or game a state is in (one position is taken from each)."""
    public = engine.view(state, None)
    return public["hand"], public.get("deal", 0) if engine.NAME != "kazino" else 0


def positions(game: str, count: int, seed: int, max_deals: int) -> list[tuple[Any, int]]:
    """``count`` knowable decisions (state, seat) from seeded playouts, one per hand at most."""
    from replay import exact

    name, chosen = GAMES[game]
    engine = engines.get(name)
    config = engines.compose(engine, chosen, 2)
    out: list[tuple[Any, int]] = []
    game_no = 0
    while len(out) < count:
        game_no += 1
        rng = random.Random(f"{seed}:{game}:{game_no}")
        bots = [get_bot(name, rng.choice(["greedy", "greedy", "random"])) for _ in range(2)]
        state = engine.replay(engine.start(config, rng.randrange(2**31)))
        # Each hand: stop at a random one of its knowable decisions (drawn as they come: reservoir).
        current, chosen_here, seen = None, None, 0
        while engine.to_act(state) and len(out) < count:
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            here = unit(engine, state)
            if here != current:
                if chosen_here is not None:
                    out.append(chosen_here)
                current, chosen_here, seen = here, None, 0
            if len(legal) > 1:
                view = engine.view(state, seat)
                if exact.knowable(name, view, max_deals):
                    seen += 1
                    if rng.random() < 1 / seen:
                        chosen_here = (state, seat)
            action = bots[seat].choose(engine.view(state, seat), legal, rng)
            for event in engine.decide(state, seat, action):
                state = engine.apply(state, event)
        if chosen_here is not None and len(out) < count:
            out.append(chosen_here)
    return out


def bot_solve(game: str, view: Any, state: Any, action: Any, win: float) -> float | None:
    """The same deal valued by the bots' own exact solvers, where they have one in the review's units
    (Block: ``dominoes_solve``; Pitch: the Expert's trick-play solve): a cross-check of ``replay.exact``
    written apart from it. None where there is none (Draw, Kazino) or it does not apply."""
    if game == "pitch":
        from games.bots.pitch_expert import PitchPosition

        return PitchPosition(view, win, solve_cards=99, pool=1).value(state, action, 0.0)
    if game == "block":
        from games.bots.dominoes_solve import solvable, solve
        from games.engines import dominoes

        after = state
        for event in dominoes.decide(state, view["seat"], action):
            after = dominoes.apply(after, event)
        return solve(after, view["seat"], round(2 * win)) / 2 if solvable(after) else None
    return None


def cross_check(
    game: str, view: Any, legal: list[Any], win: float, deals: list[Any], rng: random.Random
) -> tuple[int, int]:
    """(actions compared, values that differ) on one of the consistent ``deals`` picked at random."""
    from replay import exact

    name = GAMES[game][0]
    state = rng.choice(deals)
    solver = exact.Solver(engines.get(name), exact.GAMES[name], view["seat"], win)
    compared = differ = 0
    for action in legal:
        theirs = bot_solve(game, view, state, action, win)
        if theirs is None:
            continue
        compared += 1
        differ += abs(theirs - solver.after(state, view["seat"], action, -math.inf, math.inf)) > TIE
    return compared, differ


class Recorder:
    """``replay.exact.values`` as the review calls it, its answer and CPU kept for the reference.

    With the exact endgames on, the review's values and the reference's are one deterministic call
    (``exact.values``, the same view, legal actions, ``win`` and deal limit): solving it a second time
    for the reference would check nothing the first solve did not, at twice the CPU. So the reference
    reads what the review's call answered (its CPU is reported as the reference's), and what checks the
    solver apart from itself is the cross-check with the bots' own solvers. With the exact endgames
    off, the review never calls it and the reference solves afresh: then it is an independent check
    of the review's own search."""

    def __init__(self) -> None:
        from replay import exact

        self.exact = exact
        self.solve = exact.values
        self.found: dict[str, Any] = {}
        self.cpu = 0.0

    def __call__(
        self, engine_name: str, view: Any, legal: list[Any], win: float, max_deals: int = 0
    ) -> list[tuple[float, Any]] | None:
        t0 = time.process_time()
        found = self.solve(engine_name, view, legal, win, max_deals or self.exact.MAX_DEALS)
        self.cpu += time.process_time() - t0
        self.found[self.key(engine_name, view, legal, win, max_deals or self.exact.MAX_DEALS)] = found
        return found

    @staticmethod
    def key(engine_name: str, view: Any, legal: list[Any], win: float, max_deals: int) -> str:
        return json.dumps([engine_name, view, legal, win, max_deals], sort_keys=True, default=str)

    def values(
        self, engine_name: str, view: Any, legal: list[Any], win: float, max_deals: int
    ) -> tuple[list[tuple[float, Any]] | None, float]:
        """The exact values (the review's answer where it asked for these, else solved now) and the
        CPU they took."""
        key = self.key(engine_name, view, legal, win, max_deals)
        if key in self.found:
            cpu, self.cpu = self.cpu, 0.0
            return self.found.pop(key), cpu
        t0 = time.process_time()
        found = self.solve(engine_name, view, legal, win, max_deals)
        return found, time.process_time() - t0


def measure(game: str, count: int, seed: int, level: str, use_exact: bool, max_deals: int) -> dict[str, Any]:
    from replay import exact, review

    name, _chosen = GAMES[game]
    engine = engines.get(name)
    settings = review.settings_for(name, {"level": level, "exact": max_deals if use_exact else 0})
    ref = review.referee(engine, settings)
    found = positions(game, count, seed, max_deals)
    agree = flagged_best = mistaken_best = best_played = decisive = decisive_agree = 0
    loss_errors: list[float] = []
    cpu_review = cpu_exact = 0.0
    deals = compared = differ = 0
    recorder = Recorder()
    for i, (state, seat) in enumerate(found):
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        rng = random.Random(f"{seed}:{game}:played:{i}")
        played = rng.choice(legal)
        recorder.cpu = 0.0
        t0 = time.process_time()
        with mock.patch.object(exact, "values", recorder):
            decision = review.evaluate(
                ref, state, seat, engine.decide(state, seat, played), f"bench:{game}:{i}", seq=i
            )
        cpu_review += time.process_time() - t0
        assert decision is not None
        truth, cpu = recorder.values(name, view, legal, settings["win"], max_deals)
        cpu_exact += cpu
        assert truth is not None
        consistent = exact.consistent_deals(name, view, max_deals) or []
        deals += len(consistent)
        checked = cross_check(game, view, legal, settings["win"], consistent, rng)
        compared, differ = compared + checked[0], differ + checked[1]
        value = {review._key(a): v for v, a in truth}
        top = truth[0][0]
        best_ok = value[review._key(decision.best)] >= top - TIE
        agree += best_ok
        if truth[-1][0] < top - TIE:  # the moves differ: a real choice
            decisive += 1
            decisive_agree += best_ok
        if value[review._key(played)] >= top - TIE:
            best_played += 1
            flagged_best += decision.label is not None
            mistaken_best += decision.label == review.MISTAKE
        elif decision.label is not None:
            loss_errors.append(abs(decision.loss - (top - value[review._key(played)])))
    n = len(found)
    return {
        "game": game,
        "positions": n,
        "agree": agree,
        "decisive": decisive,
        "decisive_agree": decisive_agree,
        "best_played": best_played,
        "flagged_best": flagged_best,
        "mistaken_best": mistaken_best,
        "loss_error": sum(loss_errors) / len(loss_errors) if loss_errors else 0.0,
        "flagged_worse": len(loss_errors),
        "cpu_review_ms": 1000 * cpu_review / n,
        "cpu_exact_ms": 1000 * cpu_exact / n,
        # The review's CPU includes its exact solve; the reference's is that same solve, not run again.
        "reference_shared": use_exact,
        "deals": deals / n,
        "compared": compared,
        "differ": differ,
        "level": level,
        "exact": use_exact,
    }


def rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {k / n if n else 0:.3f} [{lo:.3f}, {hi:.3f}]"


def report(r: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"{r['game']}: {r['positions']} positions, {r['deals']:.0f} consistent deals each on average",
            f"  review's best is exactly best: {rate(r['agree'], r['positions'])}",
            f"    where the moves differ:      {rate(r['decisive_agree'], r['decisive'])}",
            f"  exactly-best moves played:     {r['best_played']}",
            f"    flagged as a mistake:        {rate(r['mistaken_best'], r['best_played'])}",
            f"    flagged at all:              {rate(r['flagged_best'], r['best_played'])}",
            f"  worse moves flagged: {r['flagged_worse']}, mean |stated loss − exact loss| "
            f"{r['loss_error']:.2f} points",
            f"  cross-check with the bots' own solvers, one deal a position: {r['differ']} of "
            f"{r['compared']} action values differ",
            f"  CPU per position: review {r['cpu_review_ms']:.0f} ms, exact reference {r['cpu_exact_ms']:.0f} ms"
            + (" (the review's own solve, read back)" if r["reference_shared"] else ""),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--exact-off", action="store_true")
    parser.add_argument("--max-deals", type=int, default=None)
    args = parser.parse_args()
    django_setup()
    from replay import exact

    count = 60 if args.quick else args.positions
    max_deals = args.max_deals or exact.MAX_DEALS
    lines = [
        f"# review agreement {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, level {args.level}, "
        f"exact endgames {'off' if args.exact_off else 'on'}, {count} positions, seed {args.seed}, "
        f"max deals {max_deals}; {machine()}"
    ]
    print(lines[0], flush=True)
    for game in args.games.split(","):
        r = measure(game, count, args.seed, args.level, not args.exact_off, max_deals)
        lines.append(report(r))
        print(lines[-1], flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as f:
        f.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
