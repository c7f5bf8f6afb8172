"""No API answer gives a seat's hidden cards to anyone else: another seat's state, a spectator's, an
error. Two people play through the API; after every move, each card or tile seat 0 holds must appear
nowhere in what seat 1 or a spectator is sent, during the first hand (a deck holds each card once: a
held card has not been played anywhere; a later hand deals the played cards again)."""

from __future__ import annotations

import json
import random

import pytest

from .helpers import Api, token_for, user

pytestmark = pytest.mark.django_db

HELD = {
    "dominoes": lambda view: view["hands"][view["seat"]],
    "kazino": lambda view: view["my_cards"],
    "pitch": lambda view: view["cards"],
}
STEPS = 120


@pytest.mark.parametrize("game", sorted(HELD))
def test_a_seats_hand_reaches_nobody_else(settings, game):
    settings.ACTION_RATE_LIMIT = "10000/5s"
    ada, bob = Api(token_for(user("ada"))), Api(token_for(user("bob")))
    made = ada.post("/tables", {"game": game, "seats": [{"kind": "me"}, {"kind": "open"}]})
    table = made.json()["table"]
    assert bob.post(f"/tables/{table}/join", {}).status_code == 200
    players, rng, checked = {0: ada, 1: bob}, random.Random(game), 0
    first = ada.get(f"/tables/{table}/state", seat=0).json()
    for _step in range(STEPS):
        mine = ada.get(f"/tables/{table}/state", seat=0).json()
        if mine["finished"] or mine["view"]["hand"] != first["view"]["hand"]:
            break
        if mine["view"].get("phase") == "count":
            break  # dominoes: the hands are laid open to be counted (the rules of record)
        held = HELD[game](mine["view"]) or []
        others = [
            bob.get(f"/tables/{table}/state", seat=1).content.decode(),
            Api().get(f"/tables/{table}/state").content.decode(),
            bob.get(f"/tables/{table}/state", seat=0).content.decode(),  # refused: says nothing
        ]
        for card in held:
            for text in others:
                i = text.find(json.dumps(card))
                assert i < 0, text[max(0, i - 400) : i + 60]
        checked += len(held)
        seat = mine["to_act"][0]
        state = players[seat].get(f"/tables/{table}/state", seat=seat).json()
        moved = players[seat].post(f"/tables/{table}/actions", {"action": rng.choice(state["legal_actions"])})
        assert moved.status_code == 200, moved.content
    assert checked > 20
