"""The #35 section of docs/BENCHMARKS.md (tests/bench/report_ismcts.py)."""

from __future__ import annotations

import copy

import pytest

from tests.bench import report
from tests.bench.test_report import figures


def test_the_ismcts_section_gives_rates_intervals_cpu_and_the_experts_goal():
    results = copy.deepcopy(figures())
    results["ismcts"]["rows"][2].update(win_rate=0.52, ci95=[0.47, 0.57])  # block's expert misses 0.60
    page = report.render(results)
    assert "## Against an outside search: OpenSpiel's ISMCTS (#35)" in page
    lines = page.splitlines()
    strong = next(line for line in lines if line.startswith("| skyjo (target 1) | strong |"))
    assert "0.550 [0.500, 0.600]" in strong and "80.0 ms" in strong and "76.0 ms" in strong
    assert "1× (0.95× measured)" in strong and strong.endswith("|  |"), "no goal for strong"
    assert "40 min" in strong, "what 400 games take, from the measured wall clock"
    expert = next(line for line in lines if line.startswith("| skyjo (target 1) | expert |"))
    assert "≥ 0.60: yes" in expert
    block = next(line for line in lines if line.startswith("| block (target 1) | expert |"))
    assert "≥ 0.60: **no**" in block
    assert "disagreed on the player to move, the legal plays or the winner in **0** of 400 games" in page


def test_the_section_is_left_out_when_it_did_not_run():
    results = copy.deepcopy(figures())
    del results["ismcts"]
    assert "OpenSpiel's ISMCTS (#35)" not in report.render(results)


def test_the_games_against_ismcts_are_set_for_all_or_by_name(monkeypatch):
    import os

    monkeypatch.setattr(os, "environ", dict(os.environ))  # run_all sets variables when imported
    from tests.bench import run_all

    assert run_all.ismcts_games("12") == dict.fromkeys(["skyjo", "block", "kazino", "pitch", "check"], 12)
    assert run_all.ismcts_games("kazino=6,check=10") == {
        "skyjo": 40,
        "block": 40,
        "kazino": 6,
        "pitch": 40,
        "check": 10,
    }
    with pytest.raises(SystemExit):
        run_all.ismcts_games("chess=4")
