"""The end of a game a seat resigned or was claimed against (games/commands/resignation.py has the commands):
its sides and its outcome, in the shape of an engine's. Read by the kept fold (games/eventlog/tables.py), so
it imports nothing of the command side."""

from __future__ import annotations

from typing import Any


def sides(engine: Any, config: dict[str, Any]) -> list[list[int]]:
    """The sides of a table: the engine's partnerships (its ``sides(config)``), else one seat each."""
    found = getattr(engine, "sides", None)
    teams = found(config) if found is not None else None
    return [list(team) for team in teams] if teams else [[s] for s in range(int(config["players"]))]


def outcome(engine: Any, config: dict[str, Any], resigned: dict[str, Any]) -> dict[str, Any]:
    """The end of a game stopped by a resignation or a claim, in the shape of an engine's outcome."""
    teams = sides(engine, config)
    players = int(config["players"])
    losing = next(team for team in teams if resigned["seat"] in team)
    return {
        "winners": [s for s in range(players) if s not in losing],
        "places": [len(teams) if s in losing else 1 for s in range(players)],
        "scores": [0] * players,
        "score_scale": 1,
        "teams": teams if any(len(team) > 1 for team in teams) else None,
        "reason": resigned["reason"],
        "resigned": resigned["seat"],
    }
