"""A tiny engine for the store and service tests (no product engine is needed for them).

Two or three players count up to ``goal`` by adding 1 or 2 in turn; whoever reaches it wins. Each seat
holds one secret card, so views have something to hide.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from games.engines.base import IllegalAction

NAME = "tiny"
VERSION = 1


@dataclass(frozen=True)
class State:
    players: int = 2
    goal: int = 10
    seed: int = 0
    secrets: tuple[str, ...] = ()
    total: int = 0
    turn: int = 0
    winner: int | None = None


def default_config(players: int) -> dict[str, Any]:
    return {"players": players, "goal": 10}


def validate_config(config: Any) -> dict[str, Any]:
    if not isinstance(config, dict) or set(config) - {"players", "goal"}:
        raise IllegalAction("bad_config", "Unknown options.")
    players, goal = config.get("players", 2), config.get("goal", 10)
    if players not in (2, 3) or not isinstance(goal, int) or not 1 <= goal <= 1000:
        raise IllegalAction("bad_config", "Two or three players and a goal from 1 to 1000.")
    return {"players": players, "goal": goal}


def sample_configs() -> list[dict[str, Any]]:
    return [default_config(2)]


def rematch_config(config: dict[str, Any]) -> dict[str, Any]:
    """Each new game at the table aims one higher (stands in for Kazino's alternating dealer)."""
    return {**config, "goal": config["goal"] + 1}


def start(config: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cards = rng.sample([f"{rank}{suit}" for rank in range(2, 10) for suit in "SHDC"], config["players"])
    return [{"type": "setup", "config": config, "seed": seed}, {"type": "deal", "secrets": cards}]


def apply(state: State, event: dict[str, Any]) -> State:
    kind = event["type"]
    if kind == "setup":
        return State(event["config"]["players"], event["config"]["goal"], event["seed"])
    if kind == "deal":
        return replace(state, secrets=tuple(event["secrets"]))
    if kind == "added":
        return replace(state, total=state.total + event["n"], turn=(state.turn + 1) % state.players)
    if kind == "won":
        return replace(state, winner=event["seat"])
    raise ValueError(kind)


def replay(events: list[dict[str, Any]]) -> State:
    state = State()
    for event in events:
        state = apply(state, event)
    return state


def to_act(state: State) -> list[int]:
    return [] if state.winner is not None else [state.turn]


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    return [{"type": "add", "n": n} for n in (1, 2) if state.total + n <= state.goal]


def decide(state: State, seat: int, action: Any) -> list[dict[str, Any]]:
    if not isinstance(action, dict) or action.get("type") != "add":
        raise IllegalAction("unknown_action", "You can only add 1 or 2.")
    if seat not in to_act(state):
        raise IllegalAction("not_your_turn", "It is not your turn.")
    if action not in legal_actions(state, seat):
        raise IllegalAction("bad_number", "Add 1 or 2, without going past {goal}.", goal=state.goal)
    events: list[dict[str, Any]] = [{"type": "added", "n": action["n"]}]
    if state.total + action["n"] == state.goal:
        events.append({"type": "won", "seat": seat})
    return events


def view(state: State, seat: int | None) -> dict[str, Any]:
    return {
        "game": NAME,
        "players": state.players,
        "hand": 1,
        "seat": seat,
        "total": state.total,
        "goal": state.goal,
        "to_act": to_act(state),
        "scores": [0] * state.players,
        "finished": state.winner is not None,
        "secret": state.secrets[seat] if seat is not None and state.secrets else None,
    }


def reveal(state: State) -> dict[str, Any]:
    return {**view(state, None), "secrets": list(state.secrets)}


def outcome(state: State) -> dict[str, Any] | None:
    if state.winner is None:
        return None
    return {
        "winners": [state.winner],
        "places": [1 if s == state.winner else 2 for s in range(state.players)],
        "scores": [1 if s == state.winner else 0 for s in range(state.players)],
        "score_scale": 1,
        "teams": None,
    }


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    raise NotImplementedError


def components(state: State) -> list[Any]:
    return list(state.secrets)


def hidden_from(state: State, seat: int | None) -> list[str]:
    return [c for s, c in enumerate(state.secrets) if s != seat]
