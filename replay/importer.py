"""Reading an "all" hand-history file back into the store, only once every check holds.

The checks, in order (the first one that fails refuses the file and nothing is stored):
1. the shape (replay/history.py) and every hash, recomputed with the store's own function;
2. every command replayed: the opening is what the engine starts from its setup's config and seed, a
   new game's opening likewise, a restart repeats the opening, and every move is what the engine's
   ``decide`` makes of one of that seat's legal actions in the state before it;
3. the game is over, with the status and outcome the file claims;
4. the fair-deal proof, when the game has one (replay/fair.py);
5. the same game is not stored here already (its last hash: the chain leaves the game id out).
Then the game, its seats and its events are stored through the store in one transaction.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction

from games import engines
from games.engines.base import Engine, Event, IllegalAction
from games.eventlog import store, timeline
from games.models import Event as StoredEvent
from games.models import Game, Seat
from games.words import computers
from replay import fair
from replay.history import BadFile, FileEvent, History, check_chain, commands, parse_all

_PLAYER = re.compile(r"^(?:seat|bot):(\d+)$")


def import_history(doc: Any) -> Game:
    """Verify a parsed JSON document and store it as a new game; BadFile says why it is refused."""
    found = parse_all(doc)
    check_chain(found.events)
    try:
        engine = engines.get(found.engine)
    except IllegalAction:
        raise BadFile(f"this server has no engine called {found.engine!r}") from None
    if found.engine_version != engine.VERSION:
        raise BadFile(
            f"the file was played with {engine.NAME} version {found.engine_version}; "
            f"this server has version {engine.VERSION}"
        )
    try:
        config = engine.validate_config(found.config)
    except IllegalAction as exc:
        raise BadFile(f"the config is refused: {exc.text}") from None
    if config != found.config:
        raise BadFile("the config is not in its normal form (this server would store another one)")
    if len(found.seats) != config["players"]:
        raise BadFile(f"{len(found.seats)} seats for a game of {config['players']} players")
    groups = commands(found.events)
    state, folded = replay_commands(engine, found, groups)
    status = _check_end(engine, found, state, folded)
    verdict = fair.verify_log(engine, found.rows())
    if verdict.status not in (fair.VERIFIED, fair.ABSENT):
        raise BadFile(f"the fair-deal proof fails: {verdict.message}", verdict.seq)
    already = (
        StoredEvent.objects.filter(game__engine=engine.NAME, seq=len(found.events), hash=found.head)
        .values_list("game_id", flat=True)
        .first()
    )
    if already is not None:
        raise BadFile(f"this game is already stored here, as game {already}")
    return _store(engine, found, groups, status)


def replay_commands(
    engine: Engine, found: History, groups: list[list[FileEvent]]
) -> tuple[Any, timeline.Timeline]:
    """Replay the file command by command, as the service appended them; BadFile at the first event
    that is not what the engine would have made."""
    rows: list[timeline.Row] = []
    folded = timeline.fold([])
    state = engine.replay([])
    opening: list[Event] = []
    players = int(found.config["players"])
    for group in groups:
        first = group[0]
        engine_rows = [e for e in group if timeline.is_engine_event(e.type)]
        played = [{"type": e.type, **e.data} for e in engine_rows]
        seqs = [e.seq for e in engine_rows]
        table = [e for e in group if e.type in timeline.TABLE_EVENTS]
        if not rows:
            _need(
                first.actor == "system" and not table, "the game does not start with its opening", first.seq
            )
            _check_start(engine, played, seqs, found.config)
            opening = played
        elif first.actor == "system":
            _need(
                len(table) == 1 and table[0] is first, "a system command that is no table command", first.seq
            )
            if first.type == timeline.RESTART:
                _need(
                    played == opening,
                    "a restart that does not repeat the opening",
                    _differs(played, opening, seqs),
                )
            elif first.type == timeline.NEW_GAME:
                _check_start(engine, played, seqs, _next_config(engine, found.config, folded))
            else:
                _need(not played, "a table command with moves in it", first.seq)
        else:
            match = _PLAYER.match(first.actor)
            _need(match is not None, f"unknown actor {first.actor!r}", first.seq)
            assert match is not None
            seat = int(match.group(1))
            _need(0 <= seat < players and not table and bool(played), "not a move of a seat", first.seq)
            _need(
                not folded.abandoned and folded.resigned is None and engine.outcome(state) is None,
                "a move after the game ended",
                first.seq,
            )
            _need(
                _legal(engine, state, seat, played), f"not what a legal move of seat {seat} makes", first.seq
            )
        new_rows = [timeline.Row(e.seq, e.type, e.data, e.actor, e.command_id) for e in group]
        rows += new_rows
        try:
            extended = None if table else timeline.extend(folded, new_rows)
            if extended is None:
                folded = timeline.fold(rows)
                state = engine.replay(folded.engine_events())
            else:
                folded = extended
                for event in played:
                    state = engine.apply(state, event)
        except Exception as exc:  # the engine cannot fold what the file says
            raise BadFile(f"the engine cannot apply it ({type(exc).__name__})", first.seq) from None
    return state, folded


def _need(condition: bool, message: str, seq: int) -> None:
    if not condition:
        raise BadFile(message, seq)


def _differs(played: list[Event], expected: list[Event], seqs: list[int]) -> int:
    """The seq of the first event that is not the one expected."""
    for seq, got, wanted in zip(seqs, played, expected, strict=False):
        if got != wanted:
            return seq
    return seqs[min(len(played), len(expected))] if len(played) > len(expected) else seqs[-1]


def _check_start(engine: Engine, played: list[Event], seqs: list[int], config: dict[str, Any]) -> None:
    setup = played[0] if played else {}
    _need(
        bool(seqs) and setup.get("type") == "setup",
        "an opening without its setup event",
        seqs[0] if seqs else 0,
    )
    _need(setup.get("config") == config, "an opening with another config than the game's", seqs[0])
    try:
        expected = engine.start(setup["config"], setup["seed"])
    except (IllegalAction, KeyError, TypeError):
        raise BadFile("an opening the engine refuses", seqs[0]) from None
    if played != expected:
        seq = _differs(played, expected, seqs)
        raise BadFile("an opening that is not the one the engine deals from its seed", seq)


def _next_config(engine: Engine, config: dict[str, Any], folded: timeline.Timeline) -> dict[str, Any]:
    """The config of the table's next game (games.commands.controls.next_game_config)."""
    rematch = getattr(engine, "rematch_config", None)
    if rematch is not None:
        for _ in range(folded.game_number):
            config = rematch(config)
    return config


def _legal(engine: Engine, state: Any, seat: int, played: list[Event]) -> bool:
    """Whether ``played`` is what ``decide`` makes of one of the seat's legal actions. The actions
    whose fields the first event repeats are tried first: usually the one that was played."""
    legal = engine.legal_actions(state, seat)
    head = played[0]
    likely = [a for a in legal if all(head.get(k) == v for k, v in a.items())]
    rest = [a for a in legal if not any(a is b for b in likely)]
    for action in likely + rest:
        try:
            if engine.decide(state, seat, action) == played:
                return True
        except IllegalAction:
            continue
    return False


def _check_end(engine: Engine, found: History, state: Any, folded: timeline.Timeline) -> str:
    outcome = engine.outcome(state)
    last = found.events[-1].seq
    if folded.abandoned:
        status = Game.Status.ABORTED
    elif outcome is not None or folded.resigned is not None:  # a resignation ends it too
        status = Game.Status.FINISHED
    else:
        raise BadFile("the game in this file is not over (only finished games are exported)", last)
    if found.status != status:
        raise BadFile(f"the file says the game is {found.status}, its events say {status}", last)
    if found.outcome != outcome:
        raise BadFile("the outcome in the file is not the one its events lead to", last)
    return str(status)


def _store(engine: Engine, found: History, groups: list[list[FileEvent]], status: str) -> Game:
    with transaction.atomic():
        game = Game.objects.create(
            engine=engine.NAME,
            engine_version=engine.VERSION,
            config=found.config,
            kind=found.kind,
            status=status,
            created_at=found.created_at,
            finished_at=found.finished_at or found.events[-1].created_at,
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=s.number,
                display_name=s.name,
                bot_level=s.bot,
                # A computer keeps the number its name says ("Computer 3 (Strong)"), else its seat's.
                bot_number=(computers.legacy_number(s.name) or s.number + 1) if s.bot else None,
                team=s.team,
            )
            for s in found.seats
        )
        seq, head = 0, None
        for group in groups:
            appended = store.append(
                game.pk,
                seq,
                [{"type": e.type, **e.data} for e in group],
                command_id=group[0].command_id,
                actor=group[0].actor,
                head_hash=head,
                created_at=group[0].created_at,
            )
            seq, head = appended.last_seq, appended.events[-1].hash
        if head != found.head:  # the same function computed both: this would be a bug, not a bad file
            raise BadFile("the stored chain does not end with the file's hash")
    return game
