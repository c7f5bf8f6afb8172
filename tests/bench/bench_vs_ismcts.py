"""Our computer players against an outside search: OpenSpiel's ``ISMCTSBot`` (#35, item 2).

    python tests/bench/bench_vs_ismcts.py [--level strong] [--games 40] [--multiple 1] [--game skyjo ...]
                                          [--block-check 20] [--sims N] [--first-deal 1000]

ISMCTS plays **our** engines through tests/bench/openspiel_adapter.py (its information-state key is
that seat's view, its resampler the engine's ``determinize`` of that view), with a random-rollout
evaluator, UCT constant 2 and unlimited world samples; our bot (``games.bots.get(game, level)``, any
level) plays from ``engine.view`` as at a table. Two players, one short game per deal (the presets
below: one round or one hand, so that a sample of games fits a few minutes), every deal played twice
with the seats swapped. The CPU time (``time.process_time``) around every ``choose`` and every
``step`` is the CPU per move of each side; ISMCTS's simulations are set so that its CPU per move is
``multiple`` × ours: from a calibration deal played first (not counted), then retuned after every
deal from all that was measured (``Budget``).

Reported per game: our win rate (a shared first place counts half) with its 95% Wilson interval, the
mean point margin (the absolute score difference, positive when we placed ahead, in the game's
points), both sides' CPU per move and the simulations. ``--block-check N``: the same on OpenSpiel's
own ``python_block_dominoes``, the deals mirrored into our engine (tests/bench/openspiel_block.py),
which also checks the two engines agree move by move. Appends to tests/bench/results/vs_ismcts.txt.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bench.benchlib import doc_parser, wilson  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "vs_ismcts.txt"
UCT_C = 2.0
#: The short game of each benchmark, as the chosen options of a two-player table (engines.compose).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "skyjo": ("skyjo", {"target": 1}),  # one round (the game ends when a score passes 0)
    "block": ("dominoes", {"variant": "block", "target": 1}),  # one round
    # A game to 50 (half the table default, about three rounds): the unit where a round's winner leads
    # the next, so the leader's edge of one round does not decide it (the #35 ceiling: one round is
    # too small a unit to show a 0.60 player).
    "block50": ("dominoes", {"variant": "block", "target": 50}),
    "draw": ("dominoes", {"variant": "draw", "target": 1}),
    "all_fives": ("dominoes", {"variant": "all_fives", "target": 61}),
    "kazino": ("kazino", {"match": "single"}),  # one game: the whole pack
    "pitch": ("pitch", {"max_hands": 1}),  # one hand
    # A game to 7 with a limit of 6 hands (the hand limit a club sets so a game ends in its time slot):
    # as Block to 50, the unit the players play; one hand's ceiling is too low to show a 0.60 player
    # (the all-seeing oracle wins 0.708 of one hand). Without the limit random play (ISMCTS's
    # rollouts) rarely ends a game: only a pitcher reaching 7 on their own bid wins.
    "pitch7": ("pitch", {"target": 7, "max_hands": 6}),
}
FOUR_GAMES = ("skyjo", "block", "kazino", "pitch")


def result_for(outcome: dict[str, Any], seat: int) -> tuple[float, float]:
    """(win 1, shared first place ½, loss 0; the point margin) of ``seat`` in a two-player outcome."""
    other = 1 - seat
    places, scores = outcome["places"], outcome["scores"]
    scale = outcome.get("score_scale") or 1
    gap = abs(scores[seat] - scores[other]) / scale
    if places[seat] < places[other]:
        return 1.0, gap
    if places[seat] > places[other]:
        return 0.0, -gap
    return 0.5, 0.0


def new_ismcts(game: Any, sims: int, seed: int) -> Any:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found]

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(
        game,
        evaluator,
        UCT_C,
        max_simulations=sims,
        random_state=np.random.RandomState(seed + 1),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        use_observation_string=False,
    )


class Side:
    """One side's CPU seconds, moves, moves with a choice (more than one legal action), and the
    simulations ISMCTS ran on those."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.moves = 0
        self.choices = 0
        self.work = 0

    def add(self, cpu: float, choices: int, sims: int = 0) -> None:
        self.cpu += cpu
        self.moves += 1
        if choices > 1:
            self.choices += 1
            self.work += sims

    def merge(self, other: Side) -> None:
        self.cpu += other.cpu
        self.moves += other.moves
        self.choices += other.choices
        self.work += other.work

    def per_move_ms(self) -> float:
        return 1000 * self.cpu / max(1, self.moves)


class Budget:
    """ISMCTS's simulations a move: ``fixed``, or retuned after every deal so that its CPU per move is
    ``multiple`` × ours, from everything measured so far (a calibration deal first, not counted in the
    results): our CPU per move ÷ (ISMCTS's CPU per simulation × the share of its moves that have a
    choice; a forced move costs it nothing). A single deal's estimate is noisy (our strong bots search
    to a wall-clock budget), so the retuning keeps the whole match near the multiple."""

    def __init__(self, multiple: float, fixed: int | None = None, probe: int = 60) -> None:
        self.multiple = multiple
        self.fixed = fixed
        self.sims = fixed or probe
        self.ours, self.theirs = Side(), Side()
        self.used: list[int] = []

    def observe(self, ours: Side, theirs: Side) -> None:
        self.ours.merge(ours)
        self.theirs.merge(theirs)
        if self.fixed is None and self.theirs.work:
            per_sim = self.theirs.cpu / self.theirs.work
            share = self.theirs.choices / max(1, self.theirs.moves)
            target = self.multiple * self.ours.cpu / max(1, self.ours.moves)
            self.sims = max(8, round(target / max(per_sim * share, 1e-9)))

    def figures(self, theirs: Side) -> dict[str, Any]:
        return {
            "sims": round(theirs.work / max(1, theirs.choices)),
            "sims_range": [min(self.used, default=0), max(self.used, default=0)],
        }


def oracle_bot(engine_name: str, careless: float = 0.0) -> Any:
    """The all-seeing player of the ceiling experiment: it reads the state, not a view (Block:
    tests/bench/oracle.py, optionally careless; Pitch: tests/bench/pitch_oracle.py)."""
    if engine_name == "dominoes":
        from tests.bench.oracle import OracleBot

        return OracleBot(careless=careless)
    if engine_name == "pitch" and not careless:
        from tests.bench.pitch_oracle import OracleBot as PitchOracle

        return PitchOracle()
    raise ValueError("--level oracle exists for Block (oracle or oracle0.15) and Pitch (oracle)")


def configured(bot: Any, level: str) -> Any:
    """``bot`` with the settings after a colon in ``level`` ("expert:sims=800,careless=0.1": attributes
    set to numbers), to measure a variant of a level without a new one."""
    _, _, settings = level.partition(":")
    for item in filter(None, settings.split(",")):
        name, _, text = item.partition("=")
        if not hasattr(bot, name):
            raise ValueError(f"{type(bot).__name__} has no setting {name!r}")
        setattr(bot, name, float(text) if "." in text or text == "inf" else int(text))
    return bot


def play_one(game: Any, deal: int, ours: int, level: str, sims: int, ours_side: Side, theirs: Side) -> Any:
    """One game of ``deal``: our ``level`` in seat ``ours``, ISMCTS (``sims`` simulations) in the other;
    the final state."""
    from games import bots

    engine = game.engine
    oracle = None
    if level.startswith("oracle"):  # the ceiling experiment: sees the whole deal
        oracle = oracle_bot(engine.NAME, float(level[len("oracle") :] or 0))
    else:
        bot = configured(bots.get(engine.NAME, level.partition(":")[0]), level)
    rng = random.Random(f"ours:{deal}:{ours}")
    search = new_ismcts(game, sims, seed=deal * 2 + ours)
    state = game.new_initial_state()
    state.apply_action(deal)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == ours:
            view, legal = engine.view(state.inner, seat), engine.legal_actions(state.inner, seat)
            cpu0 = time.process_time()
            if oracle is not None:
                action = oracle.choose_state(state.inner, seat, legal)
            else:
                action = bot.choose(view, legal, rng)
            ours_side.add(time.process_time() - cpu0, len(legal))
            state.apply_action(game.action_id(action))
        else:
            legal_ids = state.legal_actions()
            cpu0 = time.process_time()
            action_id = search.step(state)
            theirs.add(time.process_time() - cpu0, len(legal_ids), sims)
            state.apply_action(int(action_id))
    return state


def match(
    name: str,
    level: str = "strong",
    games: int = 40,
    multiple: float = 1.0,
    sims: int | None = None,
    first_deal: int = 1000,
    log: Any = None,
) -> dict[str, Any]:
    """``level`` against ISMCTS over ``games`` games (``games // 2`` deals, each played with our bot in
    either seat) of the preset ``name``; the figures."""
    from tests.bench import openspiel_adapter

    engine_name, options = PRESETS[name]
    game = openspiel_adapter.load(engine_name, options, rng_seed=first_deal)
    started = time.perf_counter()

    def one(deal: int, seat: int, sims: int, ours: Side, theirs: Side) -> tuple[float, float, bool]:
        won, points = result_for(play_one(game, deal, seat, level, sims, ours, theirs).outcome(), seat)
        return won, points, True

    figures, _agreed = paired_deals(one, Budget(multiple, sims), first_deal, games, f"{name} {level}", log)
    return {
        "game": name,
        "engine": engine_name,
        "options": options,
        "level": level,
        "first_deal": first_deal,
        **figures,
        "multiple": multiple,
        "calibrated": sims is None,
        "uct_c": UCT_C,
        "wall_s": time.perf_counter() - started,
    }


#: One game of a match: (deal, our seat, ISMCTS's simulations, our side's and ISMCTS's tallies) to
#: (our score: win 1, shared ½, loss 0; our margin; whether the two engines agreed all along).
PlayOne = Callable[[int, int, int, Side, Side], tuple[float, float, bool]]


def paired_deals(
    play: PlayOne, budget: Budget, first_deal: int, games: int, label: str, log: Any
) -> tuple[dict[str, Any], int]:
    """``games // 2`` deals, each played with our bot in either seat, ISMCTS's simulations retuned
    after each (``Budget``; first a calibration deal, not counted, unless they are fixed): the
    figures, and how many games the engines disagreed in."""
    if budget.fixed is None:
        ours_deal, theirs_deal = Side(), Side()
        for seat in (0, 1):
            play(first_deal - 1, seat, budget.sims, ours_deal, theirs_deal)
        budget.observe(ours_deal, theirs_deal)
    ours, theirs = Side(), Side()
    score = margin = 0.0
    played = disagreements = 0
    stopped = False
    try:
        for deal in range(first_deal, first_deal + max(1, games // 2)):
            ours_deal, theirs_deal = Side(), Side()
            budget.used.append(budget.sims)
            results = [play(deal, seat, budget.sims, ours_deal, theirs_deal) for seat in (0, 1)]
            # A deal counts whole (both seats) or not at all: a run stopped in the middle keeps pairs.
            for won, points, agreed in results:
                score += won
                margin += points
                played += 1
                disagreements += not agreed
            ours.merge(ours_deal)
            theirs.merge(theirs_deal)
            budget.observe(ours_deal, theirs_deal)
            if log:
                log(
                    f"  {label} vs ISMCTS({budget.used[-1]}): {played} games, {score:g} won; CPU/move "
                    f"ours {ours.per_move_ms():.1f} ms, ISMCTS {theirs.per_move_ms():.1f} ms"
                )
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM (main) ends a long run early with the figures of the deals played so far.
        stopped = True
        if log:
            log(f"  {label}: stopped after {played} games")
    if stopped and len(budget.used) > played // 2:
        budget.used.pop()  # the deal cut short
    return {
        **summary(score, margin, played, ours, theirs),
        **budget.figures(theirs),
        "stopped": stopped,
    }, disagreements


def summary(score: float, margin: float, played: int, ours: Side, theirs: Side) -> dict[str, Any]:
    low, high = wilson(score, played)
    return {
        "games": played,
        "score": score,
        "win_rate": score / max(1, played),
        "ci95": [low, high],
        "margin": margin / max(1, played),
        "ours_cpu_ms": ours.per_move_ms(),
        "ismcts_cpu_ms": theirs.per_move_ms(),
        "cpu_ratio": theirs.per_move_ms() / max(ours.per_move_ms(), 1e-9),
        "ours_moves": ours.moves,
        "ismcts_moves": theirs.moves,
    }


def line(r: dict[str, Any]) -> str:
    low, high = r["ci95"]
    return (
        f"{r['game']:<10} {r['level']} (deals {r['first_deal']}+) vs ISMCTS({r['sims']} sims, {r['multiple']:g}x CPU): "
        f"win {r['win_rate']:.3f} [{low:.3f}, {high:.3f}] of {r['games']}  margin {r['margin']:+.2f}  "
        f"CPU/move ours {r['ours_cpu_ms']:.1f} ms, ISMCTS {r['ismcts_cpu_ms']:.1f} ms "
        f"({r['cpu_ratio']:.2f}x)  {r['wall_s']:.0f} s" + ("  (stopped early)" if r.get("stopped") else "")
    )


def run(
    names: tuple[str, ...] | list[str] = FOUR_GAMES,
    level: str = "strong",
    games: int | dict[str, int] = 40,
    multiple: float = 1.0,
    block_check: int = 0,
    sims: int | None = None,
    log: Any = print,
    first_deal: int = 1000,
) -> dict[str, Any]:
    """Every preset in ``names`` (``games`` each, or by name) and, with ``block_check``, the Block
    cross-check: the figures."""
    rows = []
    for name in names:
        count = games if isinstance(games, int) else games[name]
        rows.append(match(name, level, count, multiple, sims, first_deal, log=log))
        log(line(rows[-1]))
        if rows[-1]["stopped"]:
            return {"rows": rows, "block_check": None, "openspiel_version": _openspiel_version()}
    check = None
    if block_check:
        from tests.bench import openspiel_block

        check = openspiel_block.match(level, block_check, multiple, sims, log=log)
        log(openspiel_block.line(check))
    return {"rows": rows, "block_check": check, "openspiel_version": _openspiel_version()}


def _openspiel_version() -> str:
    from importlib.metadata import version

    return version("open_spiel")


def main() -> None:
    parser = doc_parser(__doc__)
    parser.add_argument(
        "--level",
        default="strong",
        help="our bot's level (games.bots.LEVELS, a setting after a colon: expert:careless=0.1); "
        "oracle[CARELESS]: the all-seeing ceiling player (tests/bench/oracle.py for Block, "
        "pitch_oracle.py for Pitch; needs --sims, as it costs no CPU to match)",
    )
    parser.add_argument("--games", type=int, default=40, help="games per game (an even number: deals × 2)")
    parser.add_argument("--multiple", type=float, default=1.0, help="ISMCTS's CPU per move ÷ ours")
    parser.add_argument("--sims", type=int, help="fixed ISMCTS simulations (no calibration)")
    parser.add_argument("--game", nargs="*", choices=sorted(PRESETS), default=list(FOUR_GAMES))
    parser.add_argument(
        "--first-deal", type=int, default=1000, help="the first deal (another range: a disjoint sample)"
    )
    parser.add_argument("--block-check", type=int, default=0, help="games on python_block_dominoes")
    args = parser.parse_args()
    # A run started in the background ignores SIGINT (the shell's doing): SIGTERM stops it early too.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    lines = [
        f"== vs ISMCTS {datetime.now(UTC).isoformat(timespec='seconds')} cpus {os.cpu_count()} "
        f"load {os.getloadavg()[0]:.1f}"
    ]

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    run(
        args.game,
        args.level,
        args.games,
        args.multiple,
        args.block_check,
        args.sims,
        log=say,
        first_deal=args.first_deal,
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write("\n".join(line for line in lines if not line.startswith("  ")) + "\n\n")
    print(f"appended to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
