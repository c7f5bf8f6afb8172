"""The #35 review section of docs/BENCHMARKS.md: does the engine review agree with the exact answer
where one can be known? (figures from tests/bench/bench_review_agreement.py, run by run_all.py's
``review`` section)."""

from __future__ import annotations

from typing import Any

# Issue #35, item 3: the review's best is exactly best ≥ 95% of the time, no exactly-best move flagged
# as a mistake, over ≥ 500 knowable positions per game.
BEST_GOAL = 0.95
FULL_POSITIONS = 500


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _rate(k: int, n: int, ci: list[float]) -> str:
    return f"{k}/{n} = {k / n if n else 0:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"


def goal_rows(r: dict[str, Any]) -> list[dict[str, Any]]:
    """The two goals of one game: met (True), missed (False) or not known yet (None: too few positions,
    or an interval that straddles the goal)."""
    enough = r["positions"] >= FULL_POSITIONS
    low, high = r["agree_ci95"]
    # Missed as soon as it shows (the interval below the goal, one exactly-best move flagged); met only
    # over the full sample (and, for the rate, with the whole interval at or above the goal).
    best_met = False if high < BEST_GOAL else True if enough and low >= BEST_GOAL else None
    flagged = r["mistaken_best"]
    flag_met = False if flagged else True if enough else None
    return [
        {
            "goal": f"review's best is exactly best, {r['game']}",
            "target": f"≥ {BEST_GOAL:.0%} over ≥ {FULL_POSITIONS} positions",
            "measured": _rate(r["agree"], r["positions"], r["agree_ci95"]),
            "met": best_met,
        },
        {
            "goal": f"exactly-best moves flagged as a mistake, {r['game']}",
            "target": f"0 over ≥ {FULL_POSITIONS} positions",
            "measured": f"{flagged} of {r['best_played']}",
            "met": flag_met,
        },
    ]


def _met(ok: bool | None) -> str:
    return "yes" if ok else "**no**" if ok is False else "not yet known"


def section(results: dict[str, Any], busy: str = "") -> list[str]:
    data = results.get("review")
    if not data or not data.get("rows"):
        return []
    rows = data["rows"]
    shared = any(r.get("reference_shared") for r in rows)
    out = [
        "## Engine review against exact endgames (#35)" + busy,
        "",
        f"`tests/bench/bench_review_agreement.py`, the review at level {data['level']}, exact endgames "
        f"{'on' if data['exact'] else 'off'}, seed {data['seed']}, at most {data['max_deals']} deals a "
        "position. Positions: knowable decisions (the last tricks of two-player Pitch, the last tiles of a "
        "Block or Draw round, a Kazino game's last deal, a Skyjo seat's last turn after another went out) from seeded playouts, one per hand, round or game; "
        "the move played at each is chosen at random. The reference (`replay/exact.py`): each legal "
        "action's mean, over every deal consistent with the seat's view, of the result played out with "
        "open hands (Skyjo's last turn: the mean over the unseen card values, a draw by its best follow-up "
        "for each card drawn). Rates with 95% Wilson intervals. CPU is `time.process_time` per position."
        + (
            " With the exact endgames on the review's values are that same deterministic solve, so the "
            "reference reuses the review's answer (its CPU is the solve's share of the review's) and "
            "agreement checks the plumbing; the solver itself is checked on one consistent deal a "
            "position against the bots' own solvers (Block's `dominoes_solve`, Pitch's Expert solve)."
            if shared
            else ""
        ),
        "",
        _table(
            [
                "game",
                "positions",
                "deals a position",
                "review's best is exactly best [95%]",
                "where the moves differ",
                "exactly-best flagged as a mistake [95%]",
                "flagged at all",
                "mean stated-loss error",
                "cross-check differs",
                "CPU/position review",
                "CPU/position reference",
            ],
            [
                [
                    r["game"],
                    str(r["positions"]),
                    f"{r['deals']:.0f}",
                    _rate(r["agree"], r["positions"], r["agree_ci95"]),
                    f"{r['decisive_agree']}/{r['decisive']}",
                    _rate(r["mistaken_best"], r["best_played"], r["mistaken_ci95"]),
                    f"{r['flagged_best']}/{r['best_played']}",
                    f"{r['loss_error']:.2f} points ({r['flagged_worse']} flagged)",
                    f"{r['differ']} of {r['compared']}",
                    f"{r['cpu_review_ms']:.0f} ms",
                    f"{r['cpu_exact_ms']:.0f} ms" + (" (shared)" if r.get("reference_shared") else ""),
                ]
                for r in rows
            ],
        ),
        "",
        _table(
            ["goal", "target", "measured", "met?"],
            [[g["goal"], g["target"], g["measured"], _met(g["met"])] for r in rows for g in goal_rows(r)],
        ),
        "",
    ]
    return out
