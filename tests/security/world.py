"""The people and tables the security tests act on, and a client for each role.

Roles (docs/security.md "Who may do what"):
- ``owner``: the signed-in user of seat 0;
- ``guest``: a browser that is not signed in but whose session holds seat 0's credential (a claimed
  invite or a pass-and-play device); a script acting for the guest sends it as ``X-Seat-Token`` to the
  API;
- ``opponent``: the signed-in user of seat 1 (with seat 1's token for the API);
- ``spectator``: a signed-in user with no seat;
- ``organiser``: the signed-in user who made the tables and the tournament (no seat, not staff);
- ``staff``: a staff account with no seat;
- ``anonymous``: nobody at all.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from games.access import invites, tokens
from games.access.seats import SESSION_KEY
from games.commands import moves
from games.commands.create import SeatSpec, create_game
from games.eventlog import queries, store
from games.eventlog.tables import load_table
from games.models import Game, Invite, Seat
from replay import access, comments, frames, rooms
from seasons import service as seasons
from tournaments import clubs
from tournaments import service as tournaments
from tournaments.models import Club, MatchGame

ROLES = ("owner", "guest", "opponent", "spectator", "organiser", "staff", "anonymous")
SIGNED_IN = ("owner", "opponent", "spectator", "organiser", "staff")
_worlds = itertools.count()


@dataclass
class World:
    users: dict[str, Any]
    live: Game  # tiny, seat 0 = owner, seat 1 = opponent, seat 0 to move
    finished: Game  # tiny, played to the end by the same two
    dominoes: Game  # a real engine (the hint needs the strong player), seat 0 to move
    rated: Game  # the same at a rated table: no hint
    counted: Game  # the same at a tournament's table: no hint either
    invite: Game  # three seats: seat 1 open for a friend, seat 2's invite already claimed
    tournament: Any
    room: str  # a replay room on the finished game, opened (and driven) by the owner
    comment: int  # the owner's comment on the finished game
    invite_codes: dict[int, str] = field(default_factory=dict)  # seat of ``invite`` -> its invite's code
    tokens: dict[int, dict[int, str]] = field(default_factory=dict)  # game id -> seat -> token
    last_moment: dict[int, int] = field(default_factory=dict)  # game id -> seq of its last moment
    running: Any = None  # made when a row asks for it (held_cup)
    played_by_hand: Any = None  # made when a row asks for it (board_cup)
    ready: Any = None  # made when a row asks for it (ready_cup)
    the_club: Club | None = None  # made when a row asks for it (club)
    the_season: int | None = None  # made when a row asks for it (season)

    def token(self, game: Game, seat: int) -> str:
        return self.tokens[game.pk][seat]

    def held_cup(self) -> Any:
        """A running tournament of the organiser's where the owner (seat 0) plays the opponent (made
        on first use: most rows do not need it)."""
        if self.running is None:
            organiser = self.users["organiser"]
            options = {"game_config": {"match": "single"}}
            self.running = tournaments.create("Held Cup", "kazino", "swiss", options, by=organiser)
            for role in ("owner", "opponent"):
                tournaments.register(self.running, role, user=self.users[role])
            tournaments.seed(self.running, "manual", [1, 2], by=organiser)
            tournaments.start(self.running, by=organiser)
        return self.running

    def ready_cup(self) -> Any:
        """A tournament of the organiser's open for registration, the owner and the opponent entered:
        ready to start (made on first use)."""
        if self.ready is None:
            organiser = self.users["organiser"]
            self.ready = tournaments.create("Ready Cup", "kazino", "swiss", {}, by=organiser)
            for role in ("owner", "opponent"):
                tournaments.register(self.ready, role, user=self.users[role])
        return self.ready

    def board_cup(self) -> Any:
        """A running tournament of the organiser's played with real cards, the owner against the
        opponent at table R1-T1 (made on first use)."""
        if self.played_by_hand is None:
            organiser = self.users["organiser"]
            options = {"game_config": {"match": "single"}}
            self.played_by_hand = tournaments.create(
                "Card Room Cup", "kazino", "swiss", options, by=organiser
            )
            for role in ("owner", "opponent"):
                tournaments.register(self.played_by_hand, role, user=self.users[role])
            tournaments.set_over_the_board(self.played_by_hand, True, by=organiser)
            tournaments.seed(self.played_by_hand, "manual", [1, 2], by=organiser)
            tournaments.start(self.played_by_hand, by=organiser)
        return self.played_by_hand

    def club(self) -> Club:
        """A club the organiser made (its organiser), the owner a member, with a running tournament of
        the organiser's, the owner against the opponent (so the organiser may define the club's
        seasons, and the club's screen has a round to show); made on first use."""
        if self.the_club is None:
            organiser = self.users["organiser"]
            self.the_club = clubs.create("Security Club", f"security-club-{organiser.pk}", by=organiser)
            clubs.join(self.the_club.join_code, self.users["owner"])  # a member, not an organiser
            options = {"game_config": {"match": "single"}}
            night = tournaments.create(
                "Club Night", "kazino", "swiss", options, club=self.the_club, by=organiser
            )
            for role in ("owner", "opponent"):
                tournaments.register(night, role, user=self.users[role])
            tournaments.seed(night, "manual", [1, 2], by=organiser)
            tournaments.start(night, by=organiser)
        return self.the_club

    def season(self) -> int:
        """The club's season, defined by the organiser (made on first use); its id."""
        if self.the_season is None:
            self.the_season = seasons.define(self.club(), season_definition(), self.users["organiser"])
        return self.the_season

    def owner_token(self) -> int:
        """The id of a live API token of the owner's (made on first use)."""
        mine = tokens.live(self.users["owner"]).first()
        return mine.pk if mine is not None else tokens.create(self.users["owner"], "owner's", ["read"])[0].pk

    def running_game(self) -> int:
        """The held cup's live game."""
        return int(MatchGame.objects.get(match__tournament=self.held_cup()).game_id)


def season_definition(name: str = "Security Season") -> dict[str, Any]:
    return {
        "name": name,
        "start": date(2026, 1, 1),
        "end": date(2026, 12, 31),
        "games": ["kazino"],
        "tournaments": None,
        "scoring": {"kind": "table", "table": [10, 5]},
        "best": None,
        "tie_breaks": ["wins"],
    }


def _table(engine: str, config: dict[str, Any], users: list[Any], organiser: Any, **kwargs: Any) -> Game:
    seats = [SeatSpec(getattr(u, "username", "Friend"), user=u, awaiting_player=u is None) for u in users]
    return create_game(engine, config, seats, created_by=organiser, **kwargs)


def build() -> World:
    model = get_user_model()
    n = next(_worlds)  # several worlds may live in one test's database
    users = {
        # No password: clients sign in with force_login, and hashing one costs a third of a second.
        role: model.objects.create_user(f"{role}-{n}", is_staff=role == "staff")
        for role in SIGNED_IN
    }
    owner, opponent, organiser = users["owner"], users["opponent"], users["organiser"]
    live = _table("tiny", {"players": 2, "goal": 50}, [owner, opponent], organiser)
    finished = _table("tiny", {"players": 2, "goal": 3}, [owner, opponent], organiser)
    moves.submit(finished.pk, 0, {"type": "add", "n": 2}, "f1", store.head(finished.pk)[0])
    moves.submit(finished.pk, 1, {"type": "add", "n": 1}, "f2", store.head(finished.pk)[0])
    assert queries.result(finished.pk) is not None
    dominoes = next(
        game
        for seed in range(50)
        if load_table(
            game := _table("dominoes", {"players": 2}, [owner, opponent], organiser, seed=seed)
        ).to_act()
        == [0]
    )
    rated, counted = (
        _table("dominoes", {"players": 2}, [owner, opponent], organiser, seed=0, kind=kind)
        for kind in (Game.Kind.RATED, Game.Kind.TOURNAMENT)
    )
    invite = _table("tiny", {"players": 3, "goal": 50}, [owner, None, None], organiser)
    codes = {i.seat.number: i.code for i in Invite.objects.filter(seat__game=invite).select_related("seat")}
    invites.claim(invite.pk, codes[2], user=None)
    tournament = tournaments.create("Security Cup", "kazino", "swiss", {}, by=organiser)

    replay = frames.load(finished.pk)
    owner_view = access.Viewer(owner.pk, frozenset({0}))
    room = rooms.open_room(finished, replay, owner_view, None, None)
    note = comments.create(finished, replay, owner_view, replay.moments[-1].seq, "well played")
    tokens = {
        g.pk: {s.number: s.token for s in Seat.objects.filter(game=g)}
        for g in (live, finished, dominoes, rated, counted, invite)
    }
    last = {g.pk: frames.load(g.pk).moments[-1].seq for g in (live, finished)}
    return World(
        users,
        live,
        finished,
        dominoes,
        rated,
        counted,
        invite,
        tournament,
        room.key,
        note["id"],
        codes,
        tokens,
        last,
    )


def client_for(world: World, role: str, **kwargs: Any) -> Client:
    """A test client for ``role``: signed in, or (guest) holding seat 0's token of every table."""
    client = Client(**kwargs)
    if role in world.users:
        client.force_login(world.users[role])
    elif role == "guest":
        session = client.session
        session[SESSION_KEY] = {str(game): {"0": seats[0]} for game, seats in world.tokens.items()}
        session.save()
    return client


def api_headers(world: World, role: str, game: Game) -> dict[str, str]:
    """What a role sends to the API: the guest its seat 0 token, the opponent its own seat 1 token."""
    if role == "guest":
        return {"HTTP_X_SEAT_TOKEN": world.token(game, 0)}
    if role == "opponent":
        return {"HTTP_X_SEAT_TOKEN": world.token(game, 1)}
    return {}


def v1_headers(*scopes: str) -> Any:
    """What a role sends to the public API (/api/v1/): a signed-in role a new personal token of
    ``scopes``; the guest seat 0's credential of the table in the address (no token); anonymous nothing."""

    def headers(world: World, role: str) -> dict[str, str]:
        if role in world.users:
            return {"HTTP_AUTHORIZATION": "Bearer " + tokens.create(world.users[role], "matrix", scopes)[1]}
        if role == "guest":
            return {"HTTP_X_SEAT_TOKEN": world.token(world.live, 0)}
        return {}

    return headers
