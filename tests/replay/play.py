"""Games for the replay tests, played to the end (or part way) through the real service, no worker."""

from __future__ import annotations

import random
from typing import Any

from games import bots, engines
from games.commands.create import SeatSpec, create_game
from games.commands.moves import submit
from games.computers.autoplay import play_bot_turn
from games.eventlog.tables import Table, load_table
from games.models import Game


def new_game(
    engine_name: str,
    players: int,
    *,
    options: dict[str, Any] | None = None,
    humans: dict[int, Any] | None = None,
    seed: int | None = None,
    **kwargs: Any,
) -> Game:
    """A table of computer seats (``random`` level), except the seats given in ``humans``
    (seat → user, or None for a guest)."""
    chosen = dict(options or {})
    deck = chosen.pop(engines.STACKED_DEAL, None)  # no player may choose one: the tests stack it here
    config = engines.compose(engine_name, chosen, players)
    if deck is not None:
        config = engines.get(engine_name).validate_config({**config, engines.STACKED_DEAL: deck})
    humans = humans or {}
    seats = [
        SeatSpec(f"Human {n}", user=humans[n]) if n in humans else SeatSpec(f"Bot {n}", bot_level="random")
        for n in range(players)
    ]
    return create_game(engine_name, config, seats, seed=seed, **kwargs)


def play(game: Game, *, moves: int | None = None, limit: int = 5000) -> Table:
    """Play ``moves`` commands (or to the end): computer seats through ``autoplay.play_bot_turn``,
    human seats by a random bot's choice from that seat's view, submitted like a browser's move."""
    human_bot = bots.get(game.engine, "random")
    rng = random.Random(game.pk)
    computers = {s.number for s in game.seats.all() if s.is_bot}
    for done in range(limit):
        table = load_table(game.pk)
        if table.outcome() is not None or (moves is not None and done >= moves):
            return table
        seat = table.to_act()[0]
        if seat in computers:
            assert play_bot_turn(game.pk, table.seq, seat) == "played"
        else:
            view = table.engine.view(table.state, seat)
            action = human_bot.choose(view, table.engine.legal_actions(table.state, seat), rng)
            submit(game.pk, seat, action, f"h-{table.seq}-{seat}", table.seq)
    raise AssertionError(f"game {game.pk} did not end within {limit} moves")
