"""Send 100,000 malformed and hostile inputs through the HTTP API and the sockets, and write the figures.

    DATABASE_URL=postgres://… .venv/bin/python tests/fuzz/run_100k.py [--total N] [--out FILE]

One process (the machine has two cores for everything): pytest runs tests/fuzz with FUZZ_EXAMPLES set
so that the targets of tests/fuzz/budget.py send ``--total`` inputs together; the figures (inputs per
channel, the answers with their counts, server errors, stored actions, duration) go to
tests/bench/results/fuzz.txt. Exit status: pytest's.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from tests.fuzz.budget import TARGETS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, default=100_000, help="inputs to send in all (default 100,000)")
    parser.add_argument("--out", default=str(ROOT / "tests/bench/results/fuzz.txt"))
    args = parser.parse_args()
    per_unit = max(1, round(args.total / sum(TARGETS.values())))
    os.environ["FUZZ_EXAMPLES"] = str(per_unit)
    os.environ["FUZZ_REPORT"] = args.out
    print(f"FUZZ_EXAMPLES={per_unit}: about {args.total} inputs; figures to {args.out}", flush=True)
    import pytest

    os.chdir(ROOT)
    return int(pytest.main(["-q", "-p", "no:cacheprovider", "tests/fuzz"]))


if __name__ == "__main__":
    sys.exit(main())
