"""The deals of a duplicate round: how each is derived from the round's secret, and which are still secret.

Game *n* of every table of a duplicate round is dealt deal *n* of the round. What anyone sees of a
deal at one table (its play, its replay, its result) tells the hands at the tables still to play it,
so every deal stays secret until every table that may play it has: deal *n* is released once each
table has either finished its game *n* or decided its match without it. That includes games not
created yet — a slower table's next game, a tie-break — which is why the release is decided here,
from the tournament's fold, and not from the games that exist.

Seeds are derived with HMAC-SHA256 from the round's secret and the deal's index (the round's secret
from the tournament's, other tables' games from the tournament's and the table's key), so a seed
disclosed by one game tells nothing of another, and one secret gives a whole tournament again
(``simulate_tournament --seed``). Pure and stdlib only.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
from collections.abc import Iterator
from typing import Any

from tournaments.log import GameRecord, Round, Table, Tournament

#: Bits of a new round's secret (rounds logged before it was widened carry 62).
SECRET_BITS = 128


def _mac(secret: int, message: str) -> bytes:
    key = secret.to_bytes(max(16, (secret.bit_length() + 7) // 8), "big")
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def derive(secret: int, name: str) -> int:
    """A secret of ``SECRET_BITS`` for ``name`` (a round's, from the tournament's)."""
    return int.from_bytes(_mac(secret, name)[: SECRET_BITS // 8], "big")


def game_seed(secret: int, table: str, index: int) -> int:
    """The seed of game ``index`` at ``table`` outside duplicate rounds (63 bits): every table its own."""
    return int.from_bytes(_mac(secret, f"game:{table}:{index}")[:8], "big") >> 1


def deal_seed(secret: int, index: int) -> int:
    """The seed of deal ``index`` of a round (63 bits, what the engines take)."""
    return int.from_bytes(_mac(secret, f"deal:{index}")[:8], "big") >> 1


def group_key(secret: int) -> str:
    """The name the games store gives the round's deals (it tells nothing of the secret)."""
    return _mac(secret, "group").hex()[:40]


def is_duplicate(rnd: Round) -> bool:
    """Whether the round's tables share deals: a round of one table has nobody to hide them from."""
    return bool(rnd.secret_seed) and len(rnd.tables) > 1


def open_below(rnd: Round) -> int | None:
    """Deals below this index are released; None: all of them (every match of the round decided).

    A table still playing its match will play its next deal, or may: it holds every deal from the
    number of games it has finished.
    """
    waiting = [
        sum(1 for g in table.games if g.places is not None) for table in rnd.tables if table.result is None
    ]
    return min(waiting) if waiting else None


def _holding(t: Tournament) -> Iterator[tuple[Table, list[GameRecord]]]:
    """Each table of a duplicate round with finished games whose deals are not released yet, and
    those games: one walk for ``withheld`` and ``held_back``, so the two never disagree."""
    for rnd in t.rounds:
        if not rnd.started or not is_duplicate(rnd):
            continue
        below = open_below(rnd)
        if below is None:
            continue
        for table in rnd.tables:
            hidden = [g for g in table.games if g.places is not None and g.number - 1 >= below]
            if hidden:
                yield table, hidden


def withheld(t: Tournament) -> tuple[set[int], set[str]]:
    """The finished games whose results are still secret, and the matches decided on them."""
    games: set[int] = set()
    tables: set[str] = set()
    for table, hidden in _holding(t):
        games.update(g.game_id for g in hidden)
        if table.result is not None:
            tables.add(table.key)
    return games, tables


def held_back(t: Tournament) -> dict[str, int]:
    """The tables everyone sees as they stood when their first withheld game ended: each one's key
    and that game's number.

    A withheld result hides more than its places: whether a best-of-3 goes on to a third game or is
    decided after two tells who won the second (#37). So nothing of such a table after that game is
    public yet — no later game, no decision — until its deals are released.
    """
    return {table.key: min(g.number for g in hidden) for table, hidden in _holding(t)}


def log_cut(events: list[tuple[int, str, dict[str, Any]]], hidden: tuple[set[int], set[str]]) -> int | None:
    """Where the public log stops for now: the seq of its first withheld result (``events`` as
    ``(seq, type, data)`` in order), None when the whole log is public.

    The log is cut there rather than redacted event by event: which events follow a withheld game
    (a third game started, or the match decided) and how many would tell its result, while a prefix
    of the log tells nothing of what comes after it, and every event of it keeps a hash that checks.
    """
    games, tables = hidden
    for seq, kind, data in events:
        about = _RESULTS.get(kind)
        if about is not None and data.get(about) in (games if about == "game_id" else tables):
            return seq
    return None


def public_seq(events: list[tuple[int, str, dict[str, Any]]], hidden: tuple[set[int], set[str]]) -> int:
    """The seq of the public log's last event (``log_cut``): what the page and its socket's nudges
    say, so that neither counts the events held back."""
    cut = log_cut(events, hidden)
    return cut - 1 if cut is not None else (events[-1][0] if events else 0)


def public(t: Tournament) -> Tournament:
    """The tournament as everyone may see it now: withheld results are not there yet."""
    games, tables = withheld(t)
    if not games:
        return t
    shown = copy.deepcopy(t)
    for rnd in shown.rounds:
        for table in rnd.tables:
            for g in table.games:
                if g.game_id in games:
                    g.places, g.scores = None, None
            if table.key in tables:
                table.computed = table.override = None
                table.override_reason = ""
    return shown


#: Events that carry a game's or a match's result, and the field naming what they are about.
_RESULTS = {
    "game.finished": "game_id",
    "match.decided": "table",
    "result.overridden": "table",
    "result.forfeited": "table",
}


def redact(kind: str, data: dict[str, Any], hidden: tuple[set[int], set[str]]) -> dict[str, Any] | None:
    """A log event as everyone may read it now, or None when it may be read whole.

    Secrets (``secret_*``) never; a result withheld by ``hidden`` (``withheld(t)``) not yet: what it is
    about stays, with ``"withheld": true``.
    """
    games, tables = hidden
    about = _RESULTS.get(kind)
    if about is not None and data.get(about) in (games if about == "game_id" else tables):
        keep = ("table", "game_id")
        return {**{k: data[k] for k in keep if k in data}, "withheld": True}
    if any(k.startswith("secret_") for k in data):
        return {k: v for k, v in data.items() if not k.startswith("secret_")}
    return None
