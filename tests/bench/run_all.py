"""Every benchmark of tests/bench/ once, and docs/BENCHMARKS.md (with its charts) from the figures.

    eval "$(bin/services)" && bin/bench [--quick] [--only SECTION ...]
    python tests/bench/run_all.py --render tests/bench/results/run_all.json   # the page again, no run

Needs PostgreSQL (DATABASE_URL: the store, the long game's rebuild, the live tables, the command path
and the capacity run each create a database ``<name>_<section>`` of their own and drop it) and Redis
(REDIS_URL: the channel layer and the Celery queue). The measuring is done by the scripts' own
functions (bench_*.py), so a figure here is the one the script prints when run on its own. Sections:
engines, replay, pairing, bots, ismcts (our bots against OpenSpiel's ISMCTS, #35), review (the
engine review against exact endgames, #35), store, rebuild, fanout, edge (the spectator edge beside Daphne), pipeline (the command path), capacity (the longest: about 10–15
minutes, the Procfile's processes carrying more and more live tables). ``--quick`` takes short samples
(a smoke run of a few minutes). The figures are also written as JSON to
tests/bench/results/run_all.json; with ``--merge`` the sections measured replace theirs in that file
and the others are kept, so ``--only capacity --merge`` measures one section and rewrites the whole
page. Exit status 1 when a section failed (its error is on the page).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
os.environ["JOBS"] = "off"  # nothing plays the computer seats behind the benchmarks' backs
os.environ.setdefault("EXTRA_ENGINES", "tiny=tests.games.tiny_engine")  # the live-table bench's engine

from tests.bench import benchlib, report  # noqa: E402

SECTIONS = (
    "engines",
    "replay",
    "pairing",
    "bots",
    "ismcts",
    "review",
    "store",
    "rebuild",
    "fanout",
    "edge",
    "pipeline",
    "capacity",
    "people",
)
JSON = ROOT / "tests" / "bench" / "results" / "run_all.json"
PAGE = ROOT / "docs" / "BENCHMARKS.md"
LEVELS = ("random", "greedy", "strong")


def settings(quick: bool) -> dict[str, Any]:
    """How long each measurement samples."""
    if quick:
        return {
            "seconds": 0.3,
            "openspiel_rounds": 2,
            "bot_moves": 20,
            "ismcts_games": ismcts_games("2"),
            "review_positions": 10,
            "appends": 200,
            "store_repeats": 1,
            "rebuild_target": 60,
            "rebuild_repeats": 3,
            "spectators": [100, 1000],
            "moves": 20,
            "pairing_quick": True,
            "command_moves": 100,
            "command_repeats": 1,
            "edge_spectators": [100, 500],
            "edge_daphne": [100, 500],
            "edge_moves": 10,
            "capacity_steps": [20, 50],
            "capacity_window": 8.0,
            "people_steps": [20, 50],
            "people_seconds": 6.0,
        }
    return {
        "seconds": 2.0,
        "openspiel_rounds": 5,
        "bot_moves": 200,
        # Games per game against ISMCTS (#35 asks ≥ 400: ISMCTS_GAMES=400, about an hour per game on
        # 2 cores); per game: ISMCTS_GAMES=skyjo=10,block=14,kazino=8,pitch=20,check=10.
        "ismcts_games": ismcts_games(os.environ.get("ISMCTS_GAMES", "40")),
        # Knowable positions per game for the review's agreement with exact endgames (#35 asks ≥ 500:
        # a few CPU minutes per game).
        "review_positions": 500,
        "appends": 1500,
        "store_repeats": 3,
        "rebuild_target": 500,
        "rebuild_repeats": 5,
        "spectators": [100, 250, 500, 1000],
        "moves": 100,
        "pairing_quick": False,
        "command_moves": 600,
        "command_repeats": 3,
        "edge_spectators": [1000, 3000, 5000],
        "edge_daphne": [1000, 3000, 5000],
        "edge_moves": 40,
        "capacity_steps": [100, 250, 500, 750, 1000, 1250, 1500, 2000],
        "capacity_window": 30.0,
        "people_steps": [250, 500, 750, 1000, 1250, 1500],
        "people_seconds": 30.0,
    }


def ismcts_games(text: str) -> dict[str, int]:
    """Games against ISMCTS per game (and ``check``, the Block cross-check): ``N`` for each, or
    ``name=N,...`` (a name left out plays 40)."""
    from tests.bench import bench_vs_ismcts

    names = [*bench_vs_ismcts.FOUR_GAMES, "check"]
    if "=" not in text:
        return dict.fromkeys(names, int(text))
    chosen = {k.strip(): int(v) for k, v in (part.split("=") for part in text.split(",") if part.strip())}
    unknown = set(chosen) - set(names)
    if unknown:
        raise SystemExit(f"ISMCTS_GAMES: no game called {', '.join(sorted(unknown))}")
    return {name: chosen.get(name, 40) for name in names}


def engines_section(s: dict[str, Any]) -> dict[str, Any]:
    from tests.bench import bench_dominoes, bench_kazino, bench_pitch, bench_skyjo

    seconds = s["seconds"]
    two_and_four = [(2, False), (4, False)]
    rates = bench_skyjo.engine_rates(seconds)
    rates += bench_dominoes.engine_rates(seconds, tables=two_and_four)
    rates += bench_kazino.engine_rates(seconds)
    for r in bench_pitch.engine_rates(seconds, [bench_pitch.random_config(n) for n in (2, 4)]):
        c = r["config"]
        hands = f", at most {c['max_hands']} hands" if c.get("max_hands") else ""
        rates.append({**r, "label": f"{c['players']} players, target {c['target']}{hands}"})
    block = bench_dominoes.block_vs_openspiel(seconds, rounds=s["openspiel_rounds"])
    return {"rates": rates, "block_vs_openspiel": block}


def replay_section(s: dict[str, Any]) -> list[dict[str, Any]]:
    from tests.bench import bench_dominoes, bench_kazino, bench_pitch, bench_skyjo

    logs = {
        "skyjo": bench_skyjo.replay_logs(),
        "dominoes": bench_dominoes.replay_logs(),
        "kazino": bench_kazino.replay_logs(),
        "pitch": bench_pitch.replay_logs(),
    }
    return [benchlib.replay_rate(game, game_logs, s["seconds"]) for game, game_logs in logs.items()]


def pairing_section(s: dict[str, Any]) -> dict[str, Any]:
    from tests.bench import bench_pairing

    return bench_pairing.measure(players=512, rounds=9, quick=s.get("pairing_quick", False))


def bots_section(s: dict[str, Any]) -> list[dict[str, Any]]:
    from games import engines
    from tests.bench import bench_kazino

    rows = []
    for game in engines.names():
        config = bench_kazino.SINGLE if game == "kazino" else None
        for level in LEVELS:
            m = benchlib.bot_move_times(game, level, s["bot_moves"], config=config)
            ms = [1000 * t for t in m["times"]]
            rows.append(
                {
                    "game": game,
                    "level": level,
                    "players": m["players"],
                    "moves": len(ms),
                    "games": m["games"],
                    "mean_ms": sum(ms) / len(ms),
                    "p50_ms": benchlib.percentile(ms, 0.5),
                    "p95_ms": benchlib.percentile(ms, 0.95),
                    "max_ms": max(ms),
                    "cpu_ms_per_move": 1000 * m["cpu"] / len(ms),
                    "load_before": m["load_before"],
                    "load_after": m["load_after"],
                }
            )
            print(f"  {benchlib.move_time_line(m)}", flush=True)
    return rows


def ismcts_section(s: dict[str, Any]) -> dict[str, Any]:
    """#35: each level that has one against OpenSpiel's ISMCTS in the four games (strong at equal CPU per
    move, expert at twice its own), and the Block cross-check on OpenSpiel's python_block_dominoes."""
    from games import bots
    from tests.bench import bench_vs_ismcts, openspiel_block

    games = s["ismcts_games"]
    runs = [("strong", 1.0)] + [("expert", 2.0)] * ("expert" in bots.LEVELS)
    out: dict[str, Any] = {"rows": [], "block_check": None}
    for level, multiple in runs:
        got = bench_vs_ismcts.run(bench_vs_ismcts.FOUR_GAMES, level, games, multiple, log=print)
        out["rows"] += got["rows"]
        out["openspiel_version"] = got["openspiel_version"]
    out["block_check"] = openspiel_block.match("strong", games["check"], 1.0, log=print)
    print(f"  {openspiel_block.line(out['block_check'])}", flush=True)
    return out


def review_section(s: dict[str, Any]) -> dict[str, Any]:
    """#35: the engine review (Expert level, exact endgames on) against the exact values of knowable
    endgames, per game."""
    benchlib.django_setup()  # the review reads the store's modules
    from games import bots
    from replay import exact
    from tests.bench import bench_review_agreement as agreement

    level = "expert" if "expert" in bots.LEVELS else "strong"
    seed = 35
    rows = []
    for game in agreement.GAMES:
        r = agreement.measure(game, s["review_positions"], seed, level, True, exact.MAX_DEALS)
        r["agree_ci95"] = benchlib.wilson(r["agree"], r["positions"])
        r["mistaken_ci95"] = benchlib.wilson(r["mistaken_best"], r["best_played"])
        print(agreement.report(r), flush=True)
        rows.append(r)
    return {
        "level": level,
        "exact": True,
        "seed": seed,
        "max_deals": exact.MAX_DEALS,
        "rows": rows,
    }


def store_section(s: dict[str, Any]) -> list[dict[str, Any]]:
    from tests.bench import bench_store

    return bench_store.measure(s["appends"], repeats=s["store_repeats"])


def rebuild_section(s: dict[str, Any]) -> dict[str, Any]:
    from tests.bench import bench_replay_page, bench_service

    with benchlib.scratch_database("rebuild"):
        started = time.perf_counter()
        game = bench_service.long_game(s["rebuild_target"])
        built = time.perf_counter() - started
        figures = bench_service.rebuild(game, s["rebuild_repeats"])
        # The replay page of the same long game, its baseline in the same run (#37).
        page = bench_replay_page.measure(game, s["rebuild_repeats"])
    return {
        **figures,
        "page_folded_s": page["folded_s"],
        "page_kept_s": page["kept_s"],
        "target": s["rebuild_target"],
        "build_s": built,
        "repeats": s["rebuild_repeats"],
    }


def fanout_section(s: dict[str, Any]) -> list[dict[str, Any]]:
    from tests.bench import bench_fanout

    if not os.environ.get("REDIS_URL"):
        raise RuntimeError("REDIS_URL is not set: the live tables need channels-redis")
    return bench_fanout.sweep(s["spectators"], moves=s["moves"], rate=10.0, web=2, clients=2)


def edge_section(s: dict[str, Any]) -> list[dict[str, Any]]:
    from tests.bench import bench_edge

    return bench_edge.sweep(s["edge_spectators"], s["edge_daphne"], moves=s["edge_moves"], rate=2.0)


def pipeline_section(s: dict[str, Any]) -> list[dict[str, Any]]:
    from tests.bench import bench_command

    return bench_command.measure(s["command_moves"], (1, 8), repeats=s["command_repeats"])


def capacity_section(s: dict[str, Any]) -> dict[str, Any]:
    from tests.bench import bench_capacity

    return bench_capacity.measure(s["capacity_steps"], window=s["capacity_window"])


def people_section(s: dict[str, Any]) -> list[dict[str, Any]]:
    from tests.bench import bench_edge_tables

    return bench_edge_tables.sweep(s["people_steps"], seconds=s["people_seconds"])


RUNNERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "engines": engines_section,
    "replay": replay_section,
    "pairing": pairing_section,
    "bots": bots_section,
    "ismcts": ismcts_section,
    "review": review_section,
    "store": store_section,
    "rebuild": rebuild_section,
    "fanout": fanout_section,
    "edge": edge_section,
    "pipeline": pipeline_section,
    "capacity": capacity_section,
    "people": people_section,
}


def measure(quick: bool, only: list[str], command: str) -> dict[str, Any]:
    from games import engines

    s = settings(quick)
    results: dict[str, Any] = {
        "machine": benchlib.machine(),
        "command": command,
        "quick": quick,
        "settings": s,
        "games": engines.names(),
        "errors": {},
        "sections": {},
    }
    started = time.perf_counter()
    for section in SECTIONS:
        if only and section not in only:
            continue
        load_before = benchlib.load()
        print(f"== {section} (load {load_before[0]:.2f})", flush=True)
        t0 = time.perf_counter()
        try:
            results[section] = RUNNERS[section](s)
        except BaseException as exc:  # noqa: BLE001 - one failing section must not lose the others
            if isinstance(exc, KeyboardInterrupt):
                raise
            traceback.print_exc()
            results["errors"][section] = f"{type(exc).__name__}: {exc}"[:500]
        results["sections"][section] = {
            "seconds": time.perf_counter() - t0,
            "load_before": load_before,
            "load_after": benchlib.load(),
        }
        print(f"   {section}: {time.perf_counter() - t0:.0f} s", flush=True)
    results["duration_s"] = time.perf_counter() - started
    results["load_end"] = benchlib.load()
    return results


def keep_others(results: dict[str, Any], only: list[str], saved: Path = JSON) -> dict[str, Any]:
    """With ``--only``: every section not run keeps its figures (and load, and error) from the last
    saved run, and ``kept`` says from when, so the page keeps them rather than losing them."""
    if not only or not saved.exists():
        return results
    before = json.loads(saved.read_text())
    kept: dict[str, str] = {}
    for section in SECTIONS:
        if section in only or (section not in before and section not in before.get("errors", {})):
            continue
        if section in before:
            results[section] = before[section]
        for part in ("sections", "errors"):
            if section in before.get(part, {}):
                results[part][section] = before[part][section]
        kept[section] = before.get("kept", {}).get(section) or before["machine"]["date"]
    results["kept"] = kept
    return results


def merged(previous: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """``previous``'s figures with the sections ``new`` measured replaced; the page's header says when
    and with what command each part was measured."""
    out = dict(previous)
    for section in new["sections"]:
        out[section] = new.get(section)
        out.setdefault("sections", {})[section] = new["sections"][section]
        out.setdefault("errors", {}).pop(section, None)
        if section in new["errors"]:
            out["errors"][section] = new["errors"][section]
    out["command"] = (
        f"{previous.get('command', '')}; the {', '.join(new['sections'])} section"
        f"{'s' if len(new['sections']) > 1 else ''} on {new['machine']['date']} with {new['command']} "
        f"(load {new['machine']['load'][0]:.1f} → {new['load_end'][0]:.1f}; figures merged into run_all.json)"
    )
    return out


def write(results: dict[str, Any], page: Path = PAGE) -> None:
    images = report.charts(results, page.parent / "img")
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(report.render(results, images), encoding="utf-8")
    print(f"wrote {page.relative_to(ROOT)}" + "".join(f", docs/{path}" for path in images.values()))


def main() -> None:
    parser = benchlib.doc_parser(__doc__)
    parser.add_argument("--quick", action="store_true", help="short samples: a smoke run")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=[], help="run these sections only")
    parser.add_argument("--render", type=Path, metavar="JSON", help="write the page from saved figures")
    parser.add_argument(
        "--merge", action="store_true", help="keep the other sections' figures of run_all.json (with --only)"
    )
    args = parser.parse_args()
    if args.render:
        write(json.loads(args.render.read_text()))
        return
    command = os.environ.get("BENCH_COMMAND") or shlex.join(
        ["python", "tests/bench/run_all.py", *sys.argv[1:]]
    )
    results = measure(args.quick, args.only, command)
    if args.merge and JSON.exists():
        results = merged(json.loads(JSON.read_text()), results)
    else:
        results = keep_others(results, args.only)
    JSON.parent.mkdir(parents=True, exist_ok=True)
    JSON.write_text(json.dumps(results, indent=1, default=str) + "\n")
    write(results)
    failed = [section for section in results["errors"] if section not in results.get("kept", {})]
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
