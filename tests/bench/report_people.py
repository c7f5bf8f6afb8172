"""The #36 section of docs/BENCHMARKS.md: tables of people (figures from tests/bench/bench_edge_tables.py,
run by run_all.py's ``people`` section): every move sent by a simulated person over the table socket."""

from __future__ import annotations

from typing import Any

PEOPLE_GOAL = (1000, 250.0)  # tables, p99 ms from a person's send to every spectator (and nothing lost)


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def passed(step: dict[str, Any]) -> bool:
    """A step within the goal's terms: p99 under the limit, nothing lost, every due move made."""
    return step["p99"] < PEOPLE_GOAL[1] and step["lost"] == 0 and step["moves"] >= 0.98 * step["due"]


def capacity(steps: list[dict[str, Any]]) -> int:
    """The most tables of a step that passed, every smaller step having passed too."""
    best = 0
    for step in sorted(steps, key=lambda s: s["tables"]):
        if not passed(step):
            break
        best = step["tables"]
    return best


def goals(results: dict[str, Any]) -> list[dict[str, Any]]:
    steps = results.get("people") or []
    tables, limit = PEOPLE_GOAL
    best = capacity(steps) if steps else None
    knee = next((s for s in sorted(steps, key=lambda s: s["tables"]) if not passed(s)), None)
    return [
        {
            "goal": "live tables of people at human pace (a move / 3 s over the table socket, two Daphne "
            "processes), 2 spectators each on the edge",
            "target": f"≥ {tables:,} tables, p99 < {limit:g} ms, 0 lost",
            "measured": "—"
            if best is None
            else f"{best:,} tables" + (f" (knee at {knee['tables']:,})" if knee else ""),
            "baseline": "—",
            "ratio": "—" if best is None else f"{best / tables:.2f}× goal",
            "met": None if best is None else best >= tables,
        }
    ]


def section(results: dict[str, Any], busy: str, images: dict[str, str]) -> list[str]:
    steps = results.get("people") or []
    if not steps:
        return []
    rows = [
        [
            f"{s['tables']:,}",
            f"{s['moves']:,} / {s['due']:,}",
            f"{s['p50']:.1f}",
            f"{s['p99']:.1f}",
            f"{s['stored_p99']:.1f}",
            f"{s['fanout_p99']:.1f}",
            f"{s['lost']:,}",
            f"{s['web_cpu_ms']:.2f}",
            f"{sum(s['cores_busy'].values()):.2f}",
            f"{s['seating_s']:.1f}",
            f"{s['load'][0]:.1f}",
        ]
        for s in steps
    ]
    last = max((s for s in steps if passed(s)), key=lambda s: s["tables"], default=steps[-1])
    out = [
        "## Capacity: tables of people" + busy,
        "",
        "`tests/bench/bench_edge_tables.py`: two Daphne processes, the spectator edge, PostgreSQL and Redis; "
        "each table has two simulated people who move every 3 s over the table socket as the browser "
        "does (seat token, `expected_seq`, waiting for the ack), and 2 spectators on the edge. Every "
        "player is seated before the first move (the seating's time is its own column); then 30 s of play. "
        "Latency: from a person's send to each spectator's receipt; lost: not received 30 s after the last "
        "move.",
        "",
        _table(
            [
                "tables",
                "moves made / due",
                "p50 ms",
                "p99 ms",
                "send → stored p99 ms",
                "stored → spectator p99 ms",
                "lost",
                "web CPU ms a move",
                "cores busy",
                "seating s",
                "load",
            ],
            rows,
        ),
        "",
    ]
    if "people" in images:
        out += [f"![tables of people: latency and cores busy]({images['people']})", ""]
    out += [
        f"Where the time goes at {last['tables']:,} tables: CPU milliseconds a move, and cores kept busy "
        "while playing, per part (PostgreSQL and Redis: the whole servers; the players and spectators are "
        "the benchmark's own clients, on the same machine).",
        "",
        _table(
            ["part", "CPU ms a move", "cores busy"],
            [
                [name, f"{ms:.2f}", f"{last['cores_busy'][name]:.2f}"]
                for name, ms in last["cpu_ms_per_move"].items()
            ],
        ),
        "",
    ]
    return out


def chart(results: dict[str, Any], plt: Any, save: Any) -> None:
    steps = results.get("people") or []
    if not steps:
        return
    xs = [s["tables"] for s in steps]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    left.plot(xs, [s["p50"] for s in steps], "o-", label="p50")
    left.plot(xs, [s["p99"] for s in steps], "s-", label="p99")
    left.axhline(PEOPLE_GOAL[1], color="grey", linestyle="--", linewidth=1, label="p99 limit: 250 ms")
    left.axvline(PEOPLE_GOAL[0], color="grey", linestyle=":", linewidth=1, label="goal: 1,000 tables")
    left.set_yscale("log")
    left.set_xlabel("tables of people (a move every 3 s, 2 spectators each)")
    left.set_ylabel("send → every spectator, ms")
    left.grid(alpha=0.3)
    left.legend(fontsize="small")
    bottom = [0.0] * len(steps)
    for part in steps[0]["cores_busy"]:
        values = [s["cores_busy"].get(part, 0.0) for s in steps]
        right.bar([f"{t:,}" for t in xs], values, bottom=bottom, label=part)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    right.axhline(2, color="grey", linestyle="--", linewidth=1, label="this machine's 2 cores")
    right.set_xlabel("tables")
    right.set_ylabel("cores busy while playing")
    right.legend(fontsize="x-small")
    save(fig, "people")
