"""The command-line tools of DESIGN.md: play, botmatch, demo (verify_events is in test_store)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.eventlog import store
from games.models import Game

pytestmark = pytest.mark.django_db


def run(*args, **kwargs) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, **kwargs)
    return out.getvalue()


def test_botmatch_ends_with_the_summary_line():
    out = run("botmatch", "kazino", "--a", "greedy", "--b", "random", "--games", "4")
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(
        r"win_rate_a=\d\.\d{3} ci95=\[\d\.\d{3},\d\.\d{3}\] games=4 p95_move_ms_a=\d+ p95_move_ms_b=\d+", last
    ), last


def test_botmatch_refuses_a_bad_option():
    with pytest.raises(CommandError):
        run(
            "botmatch",
            "kazino",
            "--a",
            "greedy",
            "--b",
            "random",
            "--games",
            "1",
            "--option",
            "match=nonsense",
        )


def test_play_runs_one_game_through_the_service_and_the_store():
    out = run("play", "kazino", "--seats", "random,random", "--seed", "3", "--option", "match=single")
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED
    assert f"game {game.pk}:" in out
    assert store.verify_chain(game.pk, store.load(game.pk)) is None
    assert "OK" in run("verify_events")


def test_demo_starts_one_computer_table_per_game_once():
    run("demo")
    run("demo")
    assert sorted(Game.objects.filter(is_demo=True).values_list("engine", flat=True)) == sorted(
        ["skyjo", "dominoes", "kazino", "pitch"]
    )
