"""A club's nights for the season tests (tests/seasons and the browser's season page)."""

from __future__ import annotations

from tournaments import simulate
from tournaments.models import Club, Tournament


def club_nights(seeds: tuple[int, ...]) -> tuple[Club, list[Tournament]]:
    """The Friday club and one three-player single-game Kazino round robin of computers a seed, played
    to the end (``Night 1``, ``Night 2``, …)."""
    club = Club.objects.create(name="Friday club", slug="friday")
    rows = []
    for n, seed in enumerate(seeds):
        row = simulate.setup(
            "kazino",
            "round_robin",
            3,
            {"game_config": {"match": "single"}},
            "greedy",
            name=f"Night {n + 1}",
            club=club,
            seed=seed,
        )
        rows.append(simulate.drive(row, timeout=600))
    return club, rows
