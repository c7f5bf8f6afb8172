"""The fuzzers run with the rate limits off (every input must reach the checks behind them; the
limits have their own tests in tests/security) and write their figures when FUZZ_REPORT names a file."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from .tally import write_report


@pytest.fixture(autouse=True)
def _no_rate_limits(settings):  # type: ignore[no-untyped-def]
    # The limits count per wall-clock window (tests/security/test_rate_limits.py tests them with a
    # clock of their own): here a fast machine would fit more requests of one seat in a window than a
    # slow one, and get refusals a slow one does not.
    settings.ACTION_RATE_LIMIT = ""
    settings.HINT_RATE_LIMIT = ""
    settings.SOCKET_RATE = 0
    # Every refusal is logged as a warning by Django: tens of thousands of lines, none of use here.
    quiet = logging.getLogger("django.request")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    yield
    quiet.setLevel(level)


def pytest_sessionfinish(session, exitstatus):  # type: ignore[no-untyped-def]
    if report := os.environ.get("FUZZ_REPORT"):
        write_report(Path(report))
