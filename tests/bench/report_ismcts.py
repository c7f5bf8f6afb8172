"""The #35 section of docs/BENCHMARKS.md: our computer players against OpenSpiel's ISMCTS
(figures from tests/bench/bench_vs_ismcts.py, run by run_all.py's ``ismcts`` section)."""

from __future__ import annotations

from typing import Any

# Issue #35: Expert ≥ 0.60 against ISMCTS given twice the Expert's CPU per move, in every game.
EXPERT_GOAL = (0.60, 2.0)  # win rate, ISMCTS's CPU multiple
FULL_GAMES = 400  # the sample per game


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _goal(r: dict[str, Any]) -> str:
    rate, multiple = EXPERT_GOAL
    if r["level"] != "expert" or r["multiple"] != multiple:
        return ""
    low = r["ci95"][0]
    verdict = "yes" if low >= rate else "**no**" if r["ci95"][1] < rate else "not yet known"
    return f"≥ {rate:.2f}: {verdict}"


def _options(options: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in options.items())


def _minutes_for(r: dict[str, Any], games: int = FULL_GAMES) -> str:
    return f"{r['wall_s'] / max(1, r['games']) * games / 60:.0f} min"


def _sims(r: dict[str, Any]) -> str:
    low, high = r.get("sims_range") or (r["sims"], r["sims"])
    return f"{r['sims']}" + (f" ({low}–{high})" if low != high else "")


def section(results: dict[str, Any], busy: str = "") -> list[str]:
    data = results.get("ismcts")
    if not data or not data.get("rows"):
        return []
    rows = data["rows"]
    out = [
        "## Against an outside search: OpenSpiel's ISMCTS (#35)" + busy,
        "",
        f"OpenSpiel {data.get('openspiel_version') or ''} `ISMCTSBot` (random-rollout evaluator, UCT "
        "constant 2, unlimited world samples, the most visited move) plays our engines through "
        "`tests/bench/openspiel_adapter.py`: a seat's information state is its view, serialised "
        "canonically, and the resampler is the engine's `determinize` of that view, so neither side sees "
        "a hidden card or the seed (`tests/bench/test_openspiel_adapter.py`). Its returns are win/loss "
        "(±1): the objective the win rate measures. Two players, one short game per deal (one round of "
        "Skyjo or Block, one Kazino game, one Pitch hand), every deal played twice with the seats swapped. "
        "CPU per move is `time.process_time` around every `choose` and `step`, forced moves included; "
        "ISMCTS's simulations are set so its CPU per move is the stated multiple of ours: estimated on a "
        "calibration deal not counted, then retuned after every deal from all measured so far (the table "
        "gives the mean on its moves with a choice, and the range). Win rate: a shared first place counts half; 95% Wilson interval. "
        "Margin: the score difference in the game's points, positive when ours placed ahead. Our strong "
        "bots search to a wall-clock budget, so on a busy machine they get less CPU per move, and ISMCTS "
        "with them.",
        "",
        _table(
            [
                "game",
                "ours",
                "ISMCTS CPU",
                "games",
                "win rate [95%]",
                "margin",
                "CPU/move ours",
                "CPU/move ISMCTS",
                "simulations",
                f"{FULL_GAMES} games take",
                "goal",
            ],
            [
                [
                    f"{r['game']} ({_options(r['options'])})",
                    r["level"],
                    f"{r['multiple']:g}× ({r['cpu_ratio']:.2f}× measured)",
                    str(r["games"]),
                    f"{r['win_rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]",
                    f"{r['margin']:+.2f}",
                    f"{r['ours_cpu_ms']:.1f} ms",
                    f"{r['ismcts_cpu_ms']:.1f} ms",
                    _sims(r),
                    _minutes_for(r),
                    _goal(r),
                ]
                for r in rows
            ],
        ),
        "",
    ]
    check = data.get("block_check")
    if check:
        low, high = check["ci95"]
        out += [
            "The Block cross-check: the same match on OpenSpiel's own `python_block_dominoes` (ISMCTS "
            "maximising its pips, with a resampler that respects the opponent's passes), each deal "
            "mirrored into our engine and both played move by move "
            f"(`tests/bench/openspiel_block.py`): {check['level']} wins **{check['win_rate']:.3f} "
            f"[{low:.3f}, {high:.3f}]** of {check['games']} games, {check['margin']:+.2f} pips a game, "
            f"CPU per move {check['ours_cpu_ms']:.1f} ms ours, {check['ismcts_cpu_ms']:.1f} ms ISMCTS's "
            f"({_sims(check)} simulations, {check['cpu_ratio']:.2f}×); the two engines disagreed on the "
            f"player to move, the legal plays or the winner in **{check['disagreements']}** of "
            f"{check['games']} games.",
            "",
        ]
    return out
