"""Provably fair deals: every hand's deal is committed to before it is dealt and opened when the game
ends, so anyone can check that the deals were fixed in advance (docs/fair-deals.md).

Per hand ``h`` the engine's ``deal_of(config, seed, h)`` gives ``open`` (what becomes known as the hand
is played: the hands dealt, a table, a first discard) and ``stock`` (the cards that may be drawn, in
order). From a random 32-byte key per commitment:

- stock keys ``s[n-1] = HMAC(key, "stock:h")``, ``s[i] = sha256(s[i+1])``; digests ``d[n]`` = 32 zero
  bytes, ``d[i] = sha256(s[i] || canonical(card i) || d[i+1])``. Opening the first ``k`` positions
  gives ``s[k-1]`` and ``d[k]``: the cards drawn can be checked, the undrawn ones stay unknown;
- ``leaf = sha256(HMAC(key, "salt:h") || canonical({"hand": h, "open": open, "stock": hex d[0]}))``;
- ``root = sha256(leaf[first] || … || leaf[last])``.

``fair.commit`` holds the leaves, the root and the key under ``secret_key`` (the project's mark for
data that never leaves the server: no view, move log or public export shows a ``fair.*`` event's
data). ``fair.reveal`` opens the hands played, in the command that ends the game. The fold and the
engines skip ``fair.*`` events (games/eventlog/timeline.py).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence
from typing import Any, Protocol, cast

from games.engines.base import Engine, Event
from games.eventlog import timeline
from games.eventlog.store import canonical

SCHEME = "tablehall-fair/1"
COMMIT, REVEAL = "fair.commit", "fair.reveal"
SECRET = "secret_key"
# Hands per commitment: more than most games last (about 5 to 25 hands) at a few milliseconds of
# creation cost; a longer game is committed HANDS_PER_COMMIT hands further when its last one is dealt.
HANDS_PER_COMMIT = 16
_END = bytes(32)


class LoggedEvent(Protocol):
    """What is read of a stored event (games.models.Event, or a row of an export file)."""

    @property
    def seq(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def data(self) -> dict[str, Any]: ...


class Dealer(Protocol):
    """The engine's two optional hooks (games/engines/CONTRACT.md)."""

    def deal_of(self, config: dict[str, Any], seed: int, hand: int) -> dict[str, Any]: ...
    def deals_in(self, events: list[Event]) -> dict[int, dict[str, Any]]: ...


def covers(engine: Engine) -> bool:
    """Whether the engine says how it deals (``deal_of`` and ``deals_in``): only then are deals committed."""
    return callable(getattr(engine, "deal_of", None)) and callable(getattr(engine, "deals_in", None))


def dealer(engine: Engine) -> Dealer:
    return cast(Dealer, engine)


def _sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def _mac(key: bytes, label: str) -> bytes:
    return hmac.new(key, label.encode(), hashlib.sha256).digest()


def _stock_keys(key: bytes, hand: int, n: int) -> list[bytes]:
    """s[0] … s[n-1]: each one the hash of the next, so one of them opens every position before it."""
    keys = [_mac(key, f"stock:{hand}")] if n else []
    while len(keys) < n:
        keys.append(_sha(keys[-1]))
    keys.reverse()
    return keys


@functools.lru_cache(maxsize=1024)
def _scalar(card: int | str) -> bytes:
    return json.dumps(card, ensure_ascii=False).encode()  # what store.canonical makes of a scalar


def _card(card: Any) -> bytes:
    """A card's canonical JSON; cards repeat (a Skyjo commitment hashes some 2,000), so it is cached."""
    return _scalar(card) if type(card) in (int, str) else canonical(card)


def _chain(keys: Sequence[bytes], cards: Sequence[Any], end: bytes) -> bytes:
    digest = end
    for k, card in zip(reversed(keys), reversed(cards), strict=True):
        digest = hashlib.sha256(k + _card(card) + digest).digest()
    return digest


def leaf(salt: bytes, hand: int, open_part: Any, stock_head: bytes) -> bytes:
    return _sha(salt, canonical({"hand": hand, "open": open_part, "stock": stock_head.hex()}))


def root(leaves: Sequence[str]) -> str:
    return _sha(*(bytes.fromhex(x) for x in leaves)).hex()


def _leaf_of(key: bytes, hand: int, deal: dict[str, Any]) -> bytes:
    stock = deal["stock"]
    head = _chain(_stock_keys(key, hand, len(stock)), stock, _END)
    return leaf(_mac(key, f"salt:{hand}"), hand, deal["open"], head)


def commit_event(engine: Engine, config: dict[str, Any], seed: int, first: int, last: int) -> Event:
    """The commitment to hands ``first`` … ``last`` of a game dealt from ``config`` and ``seed``."""
    key = secrets.token_bytes(32)
    leaves = [_leaf_of(key, h, dealer(engine).deal_of(config, seed, h)).hex() for h in range(first, last + 1)]
    return {
        "type": COMMIT,
        "scheme": SCHEME,
        "hands": [first, last],
        "leaves": leaves,
        "root": root(leaves),
        SECRET: key.hex(),
    }


def with_commitment(engine: Engine, opening: list[Event]) -> list[Event]:
    """A game's opening events with the commitment to its first hands after the setup (which stays
    first: it carries the config and the seed), before any card is dealt."""
    if not covers(engine) or not opening or opening[0].get("type") != "setup":
        return opening
    setup = opening[0]
    commit = commit_event(engine, setup["config"], setup["seed"], 1, HANDS_PER_COMMIT)
    return [setup, commit, *opening[1:]]


def opening_of(key: bytes, hand: int, deal: dict[str, Any], drawn: int) -> dict[str, Any]:
    """What opens a played hand: its salt and the first ``drawn`` positions of its stock."""
    stock = deal["stock"]
    k = min(drawn, len(stock))
    keys = _stock_keys(key, hand, len(stock))
    return {
        "hand": hand,
        "salt": _mac(key, f"salt:{hand}").hex(),
        "drawn": k,
        "key": keys[k - 1].hex() if k else None,
        "rest": _chain(keys[k:], stock[k:], _END).hex(),
    }


def opened_leaf(entry: dict[str, Any], open_part: Any, drawn: Sequence[Any]) -> bytes:
    """A played hand's leaf from what the log shows of it and its entry in the reveal.

    Raises ValueError or KeyError on a malformed entry.
    """
    keys: list[bytes] = []
    if drawn:
        keys = [bytes.fromhex(entry["key"])]
        while len(keys) < len(drawn):
            keys.append(_sha(keys[-1]))
        keys.reverse()
    head = _chain(keys, drawn, bytes.fromhex(entry["rest"]))
    return leaf(bytes.fromhex(entry["salt"]), int(entry["hand"]), open_part, head)


def in_play(events: Sequence[LoggedEvent]) -> list[tuple[int, dict[str, Any]]]:
    """The commitments of the game in play: (seq, data) of each ``fair.commit`` since the last restart
    or new game (a restart appends the opening again, its commitment included)."""
    found: list[tuple[int, dict[str, Any]]] = []
    for event in reversed(events):
        if event.type in (timeline.RESTART, timeline.NEW_GAME):
            break
        if event.type == COMMIT:
            found.append((event.seq, event.data))
    found.reverse()
    return found


def follow_up(
    engine: Engine,
    log: Sequence[LoggedEvent],
    folded: timeline.Timeline,
    new: list[Event],
    after: Any | None,
) -> list[Event]:
    """The ``fair.*`` events a command appends after its own ``new`` events.

    ``log`` and ``folded``: the table before the command; ``after``: the engine state after it (None
    for a table command). The game ends (an outcome, or abandoned): a reveal of every commitment in
    play. The last committed hand is dealt: the commitment to the next HANDS_PER_COMMIT hands.
    """
    if not covers(engine):
        return []
    deals_in = dealer(engine).deals_in
    ends = any(e["type"] in timeline.ENDINGS for e in new)
    dealt: dict[int, Any] = {}
    played_now = [e for e in new if timeline.is_engine_event(e["type"])]
    if after is not None:
        ends = ends or engine.outcome(after) is not None
        dealt = deals_in(played_now) if not ends else {}
    if not ends and not dealt:
        return []
    commits = in_play(log)
    setup = folded.groups[0].events[0] if folded.groups and folded.groups[0].events else {}
    if not commits or setup.get("type") != "setup":
        return []  # a game from before fair deals: nothing was committed
    config, seed = setup["config"], setup["seed"]
    if ends:
        played = deals_in([*folded.engine_events(), *played_now])
        return [reveal_event(engine, seq, data, config, seed, played) for seq, data in commits]
    last = max(int(data["hands"][1]) for _seq, data in commits)
    if max(dealt) < last:
        return []
    return [commit_event(engine, config, seed, last + 1, last + HANDS_PER_COMMIT)]


def reveal_event(
    engine: Engine,
    commit_seq: int,
    commit: dict[str, Any],
    config: dict[str, Any],
    seed: int,
    played: dict[int, dict[str, Any]],
) -> Event:
    """Open the hands of a commitment that were played; the others stay closed (their leaves are
    in the commitment already, and their salts are never shown)."""
    first, last = commit["hands"]
    key = bytes.fromhex(commit[SECRET])
    deal_of = dealer(engine).deal_of
    hands = [
        opening_of(key, h, deal_of(config, seed, h), len(played[h]["drawn"]))
        for h in range(first, last + 1)
        if h in played
    ]
    return {"type": REVEAL, "commit": commit_seq, "hands": hands}
