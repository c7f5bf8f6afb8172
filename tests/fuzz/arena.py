"""A table the fuzzer attacks, and the checks every answer must pass.

Every input gets exactly one answer: an ``error`` with a stable code and a sentence, or an ``ack``.
An error changes nothing (the game's head seq and hash are the same before and after). An ack either
stored a new command right after the head (the input was a valid action: it is written in the ledger)
or is the documented answer to a retried command (``duplicate``: the first answer, nothing stored).
No answer carries a seat token, a seed or a card hidden from the seat that asked. At the end every
game's chain and replay are verified, and every stored command is found once, where its ack said.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from games import engines
from games.commands.create import SeatSpec, create_game
from games.eventlog import store
from games.eventlog.tables import Table, get_game, load_table
from games.eventlog.verify import verify_game
from games.models import Event, Seat

from .tally import TALLY, Channel

PLAYERS = {"tiny": 2, "skyjo": 2, "dominoes": 2, "kazino": 2, "pitch": 3}
CODE = re.compile(r"^[a-z][a-z0-9_]{1,40}$")
SYSTEM_IDS = re.compile(r"^(opening|bot-|demo-|no-show-)")
# An ``expect`` for inputs that must be refused, with whatever code the engine gives.
ANY_ERROR = frozenset({"<any error code>"})


@dataclass(frozen=True)
class Stored:
    seat: int
    action: Any
    first: int
    last: int


@dataclass
class Arena:
    engine: str
    channel_name: str
    kind: str = "casual"  # the table's kind: rated and tournament tables refuse takebacks and pauses
    game_id: int = 0
    tokens: dict[int, str] = field(default_factory=dict)
    games: list[int] = field(default_factory=list)
    ledger: dict[tuple[int, str], Stored] = field(default_factory=dict)
    secrets: list[str] = field(default_factory=list)
    # The head after the last input, and the table folded there: nothing but the fuzzer's own inputs
    # moves the game, so each is read again only when an input stored something.
    last: dict[int, Stored] = field(default_factory=dict)  # game id -> its last stored command
    known: tuple[int, str] | None = None
    folded: tuple[tuple[int, str], Table] | None = None

    def __post_init__(self) -> None:
        self.new_game()

    @property
    def channel(self) -> Channel:
        return TALLY.channel(self.channel_name)

    # --- the table ---------------------------------------------------------------------------------

    def new_game(self) -> None:
        engine = engines.get(self.engine)
        config = engine.default_config(PLAYERS[self.engine])
        if self.engine == "tiny":
            config["goal"] = 1000  # long enough that fuzzing, not winning, is what happens
        seats = [SeatSpec(f"P{n}") for n in range(PLAYERS[self.engine])]
        game = create_game(self.engine, config, seats, kind=self.kind)
        self.game_id = game.pk
        self.games.append(game.pk)
        self.tokens = {s.number: s.token for s in Seat.objects.filter(game=game)}
        self.secrets = list(self.tokens.values()) + _stored_secrets(game.pk)
        self.known = self.folded = None

    def table(self) -> Table:
        head = self.current()
        if self.folded is None or self.folded[0] != head:
            self.folded = (head, load_table(self.game_id))
        return self.folded[1]

    def head(self) -> tuple[int, str]:
        """The head as stored (a query)."""
        return store.head(self.game_id)

    def current(self) -> tuple[int, str]:
        """The head after the last input (no query once known)."""
        if self.known is None:
            self.known = self.head()
        return self.known

    def playable(self) -> list[tuple[int, dict[str, Any]]]:
        """(seat, legal action) pairs now; a finished game is replaced by a new one first."""
        table = self.table()
        if table.outcome() is not None:
            self.new_game()
            table = self.table()
        return [
            (seat, action)
            for seat in table.to_act()
            for action in table.engine.legal_actions(table.state, seat)
        ]

    def used_command(self) -> Stored | None:
        """The last command stored in the current game (a retry's target)."""
        return self.last.get(self.game_id)

    # --- the checks on one answer ---------------------------------------------------------------

    def check(
        self,
        kind: str,
        sent: Any,
        answer: dict[str, Any],
        before: tuple[int, str],
        *,
        seat: int | None,
        expect: set[str] | frozenset[str] | None = None,
        command: tuple[str, int, Any] | None = None,
    ) -> None:
        """``answer``: the error ({"code", "message"}) or the ack ({"first_seq", "seq", "duplicate"}).
        ``expect``: the codes this kind of input may get (None: any stable code, or an ack).
        ``command``: (command id, seat, action) when the input could be a valid action."""
        channel = self.channel
        channel.sent += 1
        channel.kinds[kind] += 1
        after = self.known = self.head()
        where = f"{self.channel_name} {kind} input {_short(sent)} answered {_short(answer)}"
        if "code" in answer:
            code = answer["code"]
            channel.outcomes[code] += 1
            assert CODE.match(str(code)) and isinstance(answer.get("message"), str) and answer["message"], (
                where
            )
            assert expect is None or expect is ANY_ERROR or code in expect, (
                f"{where}: expected {sorted(expect or ())}"
            )
            TALLY.unexpected_changes += after != before
            assert after == before, f"{where}: a refused input changed the game"
            self._no_secret(answer, sent, seat, where)
            return
        assert command is not None, f"{where}: only an action can be acknowledged"
        assert expect is None or "ack" in expect, f"{where}: expected {sorted(expect)}"
        command_id, acting_seat, action = command
        first, last = answer["first_seq"], answer["seq"]
        stored = self.ledger.get((self.game_id, command_id))
        if answer["duplicate"]:
            channel.outcomes["ack (duplicate)"] += 1
            TALLY.unexpected_changes += after != before
            assert after == before, f"{where}: a retried command stored something"
            assert stored is not None and (stored.first, stored.last) == (first, last), where
            return
        channel.outcomes["ack"] += 1
        assert stored is None, f"{where}: a used command id stored a second command"
        assert first == before[0] + 1 and after[0] == last >= first, f"{where}: stored out of place"
        self.ledger[(self.game_id, command_id)] = self.last[self.game_id] = Stored(
            acting_seat, action, first, last
        )
        channel.stored += 1
        channel.events_stored += last - first + 1
        self.secrets += _stored_secrets(self.game_id, first)

    def _no_secret(self, answer: dict[str, Any], sent: Any, seat: int | None, where: str) -> None:
        text = json.dumps({k: v for k, v in answer.items() if k != "command_id"}, ensure_ascii=False)
        for secret in self.secrets:
            assert secret not in text, f"{where}: the answer holds a token or a seed"
        table = self.table()
        given = json.dumps(sent, ensure_ascii=False, default=str)
        for card in set(table.engine.hidden_from(table.state, seat)) - template_words():
            shown = re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])", answer["message"])
            assert not shown or card in given, f"{where}: the answer names the hidden card {card}"

    # --- the end ----------------------------------------------------------------------------------

    def verify(self) -> None:
        """Every game's chain and replay hold; every acknowledged command is stored once, where its
        ack said; nothing else was stored but the system's own commands."""
        for game_id in self.games:
            events = store.load(game_id)
            game = get_game(game_id)
            assert verify_game(game, events) is None, f"game {game_id} does not verify"
            commands: dict[str, list[Event]] = {}
            for event in events:
                commands.setdefault(event.command_id, []).append(event)
            acked = {cid: s for (g, cid), s in self.ledger.items() if g == game_id}
            for command_id, rows in commands.items():
                seqs = [e.seq for e in rows]
                if SYSTEM_IDS.match(command_id):
                    continue
                stored = acked.get(command_id)
                ok = stored is not None and seqs == list(range(stored.first, stored.last + 1))
                TALLY.lost_or_doubled += 0 if ok else 1
                assert ok, f"game {game_id}: command {command_id!r} at {seqs} was never acknowledged there"
            for command_id, stored in acked.items():
                found = [e.seq for e in commands.get(command_id, [])]
                ok = found == list(range(stored.first, stored.last + 1))
                TALLY.lost_or_doubled += 0 if ok else 1
                assert ok, f"game {game_id}: acknowledged command {command_id!r} is not stored as acked"
            TALLY.verified_games += 1


@cache
def template_words() -> frozenset[str]:
    """Words of the engines' own sentences ("write cards like 10H, QS or AD"): naming them tells
    nothing about any hand."""
    words: set[str] = set()
    for source in Path(engines.__file__).parent.rglob("*.py"):
        for sentence in re.findall(r'_\(\s*"((?:[^"\\]|\\.)*)"', source.read_text()):
            words |= set(re.findall(r"[0-9A-Za-z-]+", sentence))
    return frozenset(words)


def _stored_secrets(game_id: int, from_seq: int = 1) -> list[str]:
    """Seeds and secret keys in a game's events: long enough to be found by accident never."""
    found: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif ("seed" in key or key.startswith("secret")) and len(str(value)) >= 6:
            found.append(str(value))

    for data in Event.objects.filter(game_id=game_id, seq__gte=from_seq).values_list("data", flat=True):
        walk(data)
    return found


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 300 else text[:300] + f"… ({len(text)} characters)"
