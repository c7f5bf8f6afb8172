"""The deals of a duplicate round (a DealGroup): secret while the round is played, released by its owner."""

from __future__ import annotations

from functools import partial

from django.db import transaction

from games import hooks
from games.eventlog import tables
from games.models import DealGroup, Game


@transaction.atomic  # the caller's transaction when there is one (a tournament command), else its own
def release_deals(key: str, open_below: int | None) -> list[int]:
    """Release the deals of a group below ``open_below`` (all of them when None): the finished games
    that were secret and are open now, in the order they finished.

    Releases only widen: a deal once shown cannot be hidden again, so a smaller number changes
    nothing. Runs in the caller's transaction; the released tables are published after commit.
    """
    group = DealGroup.objects.select_for_update().filter(key=key).first()
    if group is None:
        return []
    before_closed, before_below = group.closed, group.open_below
    if open_below is None:
        group.closed = True
    else:
        group.open_below = max(group.open_below, open_below)
    if (group.closed, group.open_below) == (before_closed, before_below):
        return []
    group.save(update_fields=["closed", "open_below"])
    released = [
        g
        for g in group.games.exclude(status=Game.Status.ACTIVE).order_by("finished_at", "pk")
        if not (before_closed or (g.deal_index or 0) < before_below) and group.released(g.deal_index or 0)
    ]
    for game in released:
        transaction.on_commit(partial(_publish_released, game.pk))
    return [g.pk for g in released]


def _publish_released(game_id: int) -> None:
    """A released game's spectators, who saw only its opening, get the whole of it."""
    hooks.run(hooks.Change(tables.load_table(game_id), hooks.RELEASED))
