"""Paired rounds of two-player Block: a strong-bot setting against random, round by round.

Cheaper and less noisy than whole games for comparing strong-bot settings: every setting plays
the same deals from the same seats, and a round's margin says more than a game's win or loss.

    python tests/bench/bench_dominoes_rounds.py "" "budget_s=0.4" --rounds 1000

Each argument is a setting: keyword arguments of games.bots.dominoes.StrongBot ("" = defaults).
Figures are appended to tests/bench/results/dominoes_rounds.txt.
"""

from __future__ import annotations

import ast
import json
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games import bots, engines  # noqa: E402
from games.bots.dominoes import StrongBot  # noqa: E402
from tests.bench import benchlib  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "dominoes_rounds.txt"


def setting(text: str) -> dict[str, Any]:
    """ "budget_s=0.4,epsilon=0.1" → {"budget_s": 0.4, "epsilon": 0.1}"""
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        out[key.strip()] = ast.literal_eval(value.strip())
    return out


def one_round(bot: StrongBot, seed: int, strong_seat: int) -> tuple[int, bool, list[float]]:
    """One round (a game to 1 point) from a fresh deal: the strong seat's margin, whether it won it,
    and its move times."""
    engine = engines.get("dominoes")
    config = engines.compose(engine, {"target": 1}, 2)
    other = bots.get("dominoes", "random")
    rng = random.Random(seed)
    state = engine.replay(engine.start(config, seed))
    times: list[float] = []
    while seats := engine.to_act(state):
        seat = seats[0]
        view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
        started = time.perf_counter()
        action = (bot if seat == strong_seat else other).choose(view, legal, rng)
        if seat == strong_seat:
            times.append(time.perf_counter() - started)
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
    outcome = engine.outcome(state)
    assert outcome is not None
    scores = outcome["scores"]
    return scores[strong_seat] - scores[1 - strong_seat], strong_seat in outcome["winners"], times


def main() -> None:
    parser = benchlib.doc_parser(__doc__)
    parser.add_argument("settings", nargs="+")
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--dump", type=Path, help="write each setting's round margins here (JSON)")
    args = parser.parse_args()
    dumped: dict[str, list[int]] = {}
    lines = [f"\n# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {args.rounds} paired rounds, seed {args.seed}"]
    for text in args.settings:
        bot = StrongBot(**setting(text))
        margins: list[int] = []
        won = 0
        times: list[float] = []
        for i in range(args.rounds):
            margin, win, spent = one_round(bot, args.seed + i // 2, i % 2)
            margins.append(margin)
            won += win
            times += spent
        times.sort()
        p95 = 1000 * times[int(0.95 * len(times))] if times else 0.0
        line = (
            f"{text or 'defaults'!s:40} mean margin {statistics.mean(margins):6.2f} "
            f"(sd {statistics.pstdev(margins):.1f})  rounds won {won / args.rounds:.3f}  p95 move {p95:.0f} ms"
        )
        print(line, flush=True)
        lines.append(line)
        dumped[text] = margins
    if args.dump:
        args.dump.write_text(json.dumps({"seed": args.seed, "margins": dumped}))
    with RESULTS.open("a") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
