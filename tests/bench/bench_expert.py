"""Expert against Strong, every game (run on demand, not collected by pytest).

    python tests/bench/bench_expert.py [--seconds 70] [--games dominoes,kazino,pitch,skyjo]
                                       [--sims N] [--cap S]

Two players, the same deal played twice with the seats swapped (a pair), until ``--seconds`` of
wall clock per game. A unit is short so that pairs are many: one Block round (dominoes), one game
(Kazino, single), one hand (Pitch), one round (Skyjo); the unit's winner is the seat that gained
more points in it (fewer in Skyjo), a tie counts one half. Reports the Expert's win rate with a
95% Wilson interval, its points margin a unit over Strong (mean over pairs ± 95%: the same deal both
ways, so the deal's luck cancels) and the CPU per move (``process_time``, p50/p95, moves with a choice only) of
each side. ``--sims``/``--cap`` override the Expert's budget (default: the level's own).
Figures are appended to ``tests/bench/results/expert.txt``.
"""

from __future__ import annotations

import math
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games import engines  # noqa: E402
from games.bots import get as get_bot  # noqa: E402
from tests.bench.benchlib import doc_parser, machine, percentile, wilson  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "expert.txt"

#: Per unit: the config chosen (composed with the engine's defaults) and whether more points is better.
UNITS: dict[str, tuple[dict[str, Any], int]] = {
    "dominoes": ({"variant": "block"}, 1),
    "dominoes-draw": ({"variant": "draw"}, 1),  # the Draw variant shares the dominoes Expert
    "kazino": ({"match": "single"}, 1),
    "pitch": ({}, 1),
    "skyjo": ({}, -1),
}


def engine_of(unit: str) -> str:
    return unit.partition("-")[0]


def play_unit(
    game: str, seed: int, bots: list[Any], times: list[list[float]]
) -> tuple[list[float], list[int]]:
    """One unit with ``bots[seat]``: each seat's share of the win (1, 0 or 0.5 each) and the points it
    gained (lost, in Skyjo: negated, so more is better)."""
    engine = engines.get(engine_of(game))
    chosen, sign = UNITS[game]
    config = engines.compose(engine, chosen, 2)
    state = engine.replay(engine.start(config, seed))
    rng = random.Random(seed)
    start_scores = list(engine.view(state, None)["scores"])
    hand = engine.view(state, None)["hand"]
    while engine.to_act(state):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        cpu = time.process_time()
        action = bots[seat].choose(view, legal, rng)
        if len(legal) > 1:
            times[seat].append(time.process_time() - cpu)
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
        if engine.view(state, None)["hand"] != hand:
            break
    public = engine.view(state, None)
    gained = [sign * (after - before) for after, before in zip(public["scores"], start_scores, strict=True)]
    if gained[0] == gained[1]:
        return [0.5, 0.5], gained
    return ([1.0, 0.0] if gained[0] > gained[1] else [0.0, 1.0]), gained


def bench(game: str, seconds: float, expert: Any, strong: Any) -> dict[str, Any]:
    """Pairs until ``seconds`` have passed; a pair is not started unless about one more fits."""
    wall0 = time.perf_counter()
    slowest = 0.0
    wins, units, pair = 0.0, 0, 0
    margins: list[float] = []  # per pair (a deal played both ways): the Expert's points minus Strong's
    cpu: dict[str, list[float]] = {"expert": [], "strong": []}
    while time.perf_counter() - wall0 + slowest < seconds or pair == 0:
        started = time.perf_counter()
        seed = 10_000 + pair
        margin = 0.0
        for expert_seat in (0, 1):
            bots = [expert, strong] if expert_seat == 0 else [strong, expert]
            times: list[list[float]] = [[], []]
            shares, gained = play_unit(game, seed, bots, times)
            margin += gained[expert_seat] - gained[1 - expert_seat]
            wins += shares[expert_seat]
            units += 1
            cpu["expert"] += times[expert_seat]
            cpu["strong"] += times[1 - expert_seat]
        margins.append(margin / 2)
        pair += 1
        slowest = max(slowest, time.perf_counter() - started)
        print(f"  {game} pair {pair}: expert {wins:g}/{units}, margin {margin / 2:+g}", flush=True)
    low, high = wilson(wins, units)
    mean = sum(margins) / max(len(margins), 1)
    spread = (
        math.sqrt(sum((m - mean) ** 2 for m in margins) / (len(margins) - 1) / len(margins))
        if len(margins) > 1
        else math.inf
    )
    return {
        "game": game,
        "units": units,
        "rate": wins / max(units, 1),
        "low": low,
        "high": high,
        "wall": time.perf_counter() - wall0,
        "margin": mean,
        "margin_ci": 1.96 * spread,
        **{f"{side}_p{q}": percentile(cpu[side], q / 100) * 1000 for side in cpu for q in (50, 95)},
        **{f"{side}_moves": len(cpu[side]) for side in cpu},
    }


def line(r: dict[str, Any]) -> str:
    return (
        f"{r['game']:9} expert vs strong: {r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}] over {r['units']} units"
        f" · points a unit {r['margin']:+.2f} ± {r['margin_ci']:.2f}"
        f" ({r['wall']:.0f} s) · CPU/move ms p50/p95: expert {r['expert_p50']:.0f}/{r['expert_p95']:.0f}"
        f" ({r['expert_moves']} moves), strong {r['strong_p50']:.0f}/{r['strong_p95']:.0f} ({r['strong_moves']} moves)"
    )


def main() -> None:
    parser = doc_parser(__doc__)
    parser.add_argument("--seconds", type=float, default=70.0)
    parser.add_argument("--games", default="dominoes,kazino,pitch,skyjo")
    parser.add_argument("--sims", type=int, default=None)
    parser.add_argument("--cap", type=float, default=None)
    args = parser.parse_args()
    out = [f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {machine()} · sims={args.sims} cap={args.cap}"]
    print(out[0], flush=True)
    for game in args.games.split(","):
        expert = get_bot(engine_of(game), "expert")
        if args.sims is not None:
            expert.sims = args.sims  # type: ignore[attr-defined]
        if args.cap is not None:
            expert.cap_s = args.cap  # type: ignore[attr-defined]
        text = line(bench(game, args.seconds, expert, get_bot(engine_of(game), "strong")))
        print(text, flush=True)
        out.append(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
