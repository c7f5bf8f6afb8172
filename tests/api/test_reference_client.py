"""The reference client (clients/python/) and its examples, run against the site in this process
(httpx's WSGI transport: the same requests a bot sends over the network)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import httpx
import pytest
from django.core.wsgi import get_wsgi_application

from games.computers import worker

from .helpers import token_for, user

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
sys.path.insert(0, str(CLIENT))

from tablehall_client import ApiError, Client  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


def _example(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", CLIENT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def client(token: str | None = None) -> Client:
    transport = httpx.WSGITransport(app=get_wsgi_application())
    return Client("http://testserver", token, transport=transport, sleep=lambda seconds: None)


def test_the_bot_example_plays_a_whole_game(settings):
    settings.JOBS = "inprocess"
    settings.ACTION_RATE_LIMIT = "10000/5s"
    bot = _example("bot")
    lines = len((CLIENT / "examples" / "bot.py").read_text().splitlines())
    assert lines <= 50
    # The bot waits for the computer as it would over the network; here, until the worker is idle.
    outcome = bot.play(client(token_for(user())), "dominoes", wait=lambda s: worker.inprocess().drain(30))
    assert len(outcome["places"]) == 2 and 1 in outcome["places"]


def test_the_scoreboard_example_lists_live_tables():
    api = client(token_for(user()))
    table = api.create_table("kazino", seats=[{"kind": "me"}, {"kind": "open"}])
    lines = _example("scoreboard").board(client())
    assert any(line.startswith(f"#{table.id} kazino") for line in lines)


def test_errors_carry_the_stable_code():
    with pytest.raises(ApiError) as refused:
        client("th_wrong").me()
    assert refused.value.status == 401 and refused.value.code == "bad_token"
    with pytest.raises(ApiError) as missing:
        client(token_for(user())).create_table("pitch", seats=[])
    assert missing.value.code == "bad_request" and missing.value.fields == ["seats"]
