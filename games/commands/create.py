"""A new table: its game row, seats, open seats' invitations and opening deal, in one transaction."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import transaction

from games import bounds, engines, hooks
from games.access import invites
from games.commands import runner
from games.engines.base import IllegalAction, _
from games.errors import ServiceError
from games.eventlog import commitment, store, tables, timeline
from games.eventlog.tables import Table
from games.models import NAME_LENGTH, DealGroup, Game, Seat
from games.words import computers


@dataclass(frozen=True)
class SeatSpec:
    """Who sits where: a user, a computer level, or nobody yet (an open seat).

    A computer seat is called by its level and ``bot_number`` ("Computer 3 (Strong)",
    games/words/computers.py), its seat's number (from 1) unless given (a tournament's entrant keeps its
    own at every table); its ``display_name`` is kept for logs and exports only."""

    display_name: str
    user: Any = None
    bot_level: str = ""
    team: int | None = None
    awaiting_player: bool = False
    bot_number: int | None = None
    open_to_all: bool = False  # an open seat anyone may take from the lobby, not by invite only
    name_role: str = ""  # "guest" or "player": called by role and number in the reader's language

    @classmethod
    def computer(cls, number: int, level: str, team: int | None = None) -> SeatSpec:
        """Computer ``number`` of ``level``, named as every page names it (in English here)."""
        return cls(computers.stored_name(number, level), bot_level=level, team=team, bot_number=number)


def create_game(
    engine_name: str,
    config: dict[str, Any],
    seats: list[SeatSpec],
    *,
    seed: int | None = None,
    kind: str = Game.Kind.CASUAL,
    created_by: Any = None,
    spectator_delay: int = 0,
    is_demo: bool = False,
    deal: tuple[str, int] | None = None,
    absent_after: int | None = None,
    club_id: int | None = None,
) -> Game:
    """Validate the config, store the game, its seats and its opening events, in one transaction.

    ``club_id``: a club-only table, for that club's members (the caller checked that its maker is one).

    ``deal``: (group key, index) when other tables are dealt the same cards (a duplicate round):
    the game plays that deal of the group, secret until the group's owner releases it.
    """
    try:
        engine = engines.get(engine_name)
        config = engine.validate_config(config)
    except IllegalAction as exc:
        raise ServiceError.from_illegal(exc) from None
    if len(seats) != config["players"]:
        raise ServiceError(
            "wrong_seat_count",
            _("This table has {players} seats, but {given} players were given."),
            players=config["players"],
            given=len(seats),
        )
    seed = secrets.randbits(63) if seed is None else seed
    opening = commitment.with_commitment(engine, engine.start(config, seed))
    with transaction.atomic():
        group = DealGroup.objects.get_or_create(key=deal[0])[0] if deal is not None else None
        game = Game.objects.create(
            engine=engine.NAME,
            engine_version=engine.VERSION,
            config=config,
            kind=kind,
            created_by=created_by,
            spectator_delay=spectator_delay,
            # Callers read it through bounds.ABSENT_AFTER; None keeps the model's default.
            **({"absent_after": bounds.ABSENT_AFTER.parse(absent_after)} if absent_after is not None else {}),
            is_demo=is_demo,
            club_id=club_id,
            deal_group=group,
            deal_index=deal[1] if deal is not None else None,
        )
        rows = Seat.objects.bulk_create(
            Seat(
                game=game,
                number=n,
                user=spec.user,
                bot_level=spec.bot_level,
                # Callers check their names (a username always fits); a longer one is cut, not a
                # database error (PostgreSQL refuses a value past the column's length).
                display_name=spec.display_name[:NAME_LENGTH],
                bot_number=(spec.bot_number or n + 1) if spec.bot_level else None,
                team=spec.team,
                awaiting_player=spec.awaiting_player,
                open_to_all=spec.awaiting_player and spec.open_to_all,
                name_role=spec.name_role,
            )
            for n, spec in enumerate(seats)
        )
        for seat in rows:  # both databases return the new rows' keys
            if seat.awaiting_player:
                invites.create(seat)
        appended = store.append(game.pk, 0, opening, command_id="opening", actor="system")
        folded = timeline.fold(tables.rows(appended.events))
        levels = tuple(spec.bot_level for spec in seats)
        table = Table(
            game, engine, list(appended.events), folded, engine.replay(folded.engine_events()), levels
        )
        transaction.on_commit(partial(runner.after_commit, table, hooks.STORED, "system", appended.first_seq))
    return game
