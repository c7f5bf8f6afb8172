"""An exported hand history ("all", through the API) verifies with tests/api/reference_verifier.py,
a verifier written from docs/fair-deals.md alone; a changed deal does not."""

from __future__ import annotations

import ast
import copy
import random
from pathlib import Path

import pytest

from games.access import tokens
from tests import tier

from . import reference_verifier
from .helpers import Api, user
from .test_play_whole_games import GAMES, play_through

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_verifier_imports_nothing_of_the_project():
    tree = ast.parse(Path(reference_verifier.__file__).read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert names <= {"__future__", "hashlib", "json", "typing"}, names


@pytest.mark.parametrize("game", GAMES)
def test_an_exported_game_verifies_from_the_docs_alone(settings, game):
    settings.JOBS = "inprocess"
    settings.ACTION_RATE_LIMIT = "10000/5s"
    api = Api(tokens.create(user(), "bot", ["play", "organise"])[1])
    # The inner loop verifies one Kazino game, not a match of several to 160 (tests/tier.py).
    options = {"match": "single"} if tier.FAST and game == "kazino" else None
    table, _final = play_through(api, game, random.Random(game), options)
    history = api.get(f"/tables/{table}/history", perspective="all", views="none").json()
    assert reference_verifier.verify(history) >= 1
    # A deal changed after the fact: the leaf no longer matches.
    forged = copy.deepcopy(history)
    deal = next(e for e in forged["events"] if e["type"] in ("deal", "dealt", "game_start"))
    data = deal["data"]
    if "deck" in data:
        data["deck"][4], data["deck"][8] = data["deck"][8], data["deck"][4]  # two packets
    elif "grids" in data:
        data["grids"][0][0] += 1 if data["grids"][0][0] < 12 else -1
    else:
        data["hands"][0][0], data["hands"][1][0] = data["hands"][1][0], data["hands"][0][0]
    with pytest.raises(AssertionError):
        reference_verifier.verify(forged)
