"""The replay page of a long finished game: asked again, against folding its log at every request.

Run on demand (not collected by pytest):  python tests/bench/bench_replay_page.py [--target 500]
(or within ``bin/bench``'s rebuild section, on the same long game). Uses a throwaway SQLite file under
var/ (or DATABASE_URL's database). The baseline is measured in the same run, on the same game: every
request with no fair-deal verdict kept (``fair.forget_all``), which is what each request cost before
#37 (its check read and folded the whole log); then the page asked again as it is now. Figures are
appended to tests/bench/results/replay_page.txt.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")

from tests.bench import benchlib  # noqa: E402

os.environ["JOBS"] = "off"
RESULTS = ROOT / "tests" / "bench" / "results" / "replay_page.txt"


def measure(game_id: int, repeats: int = 5) -> dict[str, float]:
    """Seconds (median of ``repeats``) for ``GET /games/ID/replay/``: folding the log's fair-deal check
    at every request (the baseline), and with its verdict kept (now). The game's table and replay
    folds are kept in both, as in a warm process."""
    from django.conf import settings
    from django.test import Client

    from games.eventlog import store
    from replay import fair

    if "testserver" not in settings.ALLOWED_HOSTS and "*" not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    client = Client()
    url = f"/games/{game_id}/replay/"

    def get() -> None:
        response = client.get(url)
        assert response.status_code == 200, response.status_code

    def folded() -> None:
        fair.forget_all()  # as before #37: nothing of the check kept from the last request
        get()

    get()  # warm: the table's and the replay's folds kept, as after the first viewer
    baseline = benchlib.median_time(folded, repeats)
    get()
    kept = benchlib.median_time(get, repeats)
    return {
        "events": len(store.load(game_id)),
        "folded_s": baseline,
        "kept_s": kept,
        "ratio": baseline / kept,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", type=int, default=500, help="the Kazino match's target (its length)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    benchlib.migrated_django("bench-replay-page")
    from tests.bench import bench_service

    r = measure(bench_service.long_game(args.target), args.repeats)
    line = (
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load {os.getloadavg()[0]:.1f}: replay page of a Kazino "
        f"match to {args.target} ({r['events']:,} events), median of {args.repeats}: folded at every "
        f"request {1000 * r['folded_s']:.1f} ms, asked again {1000 * r['kept_s']:.1f} ms, "
        f"{r['ratio']:.1f}x less"
    )
    with RESULTS.open("a") as out:
        out.write(line + "\n")
    print(line)


if __name__ == "__main__":
    main()
