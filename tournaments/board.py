"""Games played with real cards and tiles ("over the board"): a result as the players wrote it,
checked as far as the rules of record allow (``../shared/rules/*.md``).

Pure: no Django, no clock. A game's entry is the list of its hands (Skyjo and dominoes rounds,
Kazino games, Pitch hands) as the score sheet has them, each value per *side* — an entrant of the
table (a partnership is one side). ``score`` checks the entry's shape, then the game's own rules,
which its engine describes with its sheet (``score_sheet(config).score``, games/engines/<game>/sheet.py:
the hands' shapes, the Skyjo closer's doubling, the Pitch set-back, Kazino's card bands, dominoes'
rounding to fives, and where the rules end the game), and returns the points per hand, the totals
and the places — or raises ``IllegalAction`` with a sentence for players.

Table codes: each table of a round played over the board has a short code, printed on its table
card, that lets a phone without an account enter and confirm that table's results. It is derived
from the tournament's secret (HMAC-SHA256), so it is never stored and never leaves the server but
on the organiser's pages.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, Any

from games import engines
from games.engines.base import IllegalAction, Sheet, _

if TYPE_CHECKING:
    from tournaments.log import Tournament

MAX_HANDS = 100
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, no 1/I: read aloud and typed on a phone
CODE_LENGTH = 6


def table_code(secret: int, key: str) -> str:
    """The code of table ``key``: 6 characters a player types on a phone (30 bits)."""
    raw = secret.to_bytes(max(16, (secret.bit_length() + 7) // 8), "big")
    digest = hmac.new(raw, f"table-code:{key}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest[:8], "big")
    out = []
    for _i in range(CODE_LENGTH):
        number, rest = divmod(number, len(CODE_ALPHABET))
        out.append(CODE_ALPHABET[rest])
    return "".join(out)


def normal_code(text: str) -> str:
    """What a player typed, as a code: capitals, no spaces or dashes, O read as 0 is no letter here."""
    return "".join(ch for ch in str(text).upper() if ch.isalnum())


def code_of(t: Tournament, key: str) -> str:
    """The code on table ``key``'s card: only the organiser's pages and sheets show it."""
    return table_code(t.secret_seed, key)


def code_table(t: Tournament, code: str) -> str | None:
    """The table of the current round played over the board whose code this is, if any."""
    typed = normal_code(code)
    rnd = t.current
    if rnd is None or not rnd.over_the_board or len(typed) != CODE_LENGTH:
        return None
    found = None
    for table in rnd.tables:  # every table compared: the time taken tells nothing
        if hmac.compare_digest(typed.encode(), code_of(t, table.key).encode()):
            found = table.key
    return found


def is_code_of(t: Tournament, key: str, code: str) -> bool:
    return hmac.compare_digest(normal_code(code).encode(), code_of(t, key).encode())


def seat_code_of(t: Tournament, key: str, entrant: int) -> str:
    """The code of one seat of table ``key`` (entrant ``entrant``'s slip of the table card): it proves
    that seat, where the table's code proves only a seat at the table. A result entered with the
    table's code is confirmed with another seat's code (or account), never by the same phone's claim
    (#37 item 4). Only the organiser's pages and sheets show it."""
    return table_code(t.secret_seed, f"{key}:seat:{entrant}")


def is_seat_code_of(t: Tournament, key: str, entrant: int, code: str) -> bool:
    return hmac.compare_digest(normal_code(code).encode(), seat_code_of(t, key, entrant).encode())


def answered(pending: dict[str, Any]) -> set[int]:
    """Who has answered an entry: confirmed it, or disagreed and sent it to the organiser (the entry
    waits for the others only)."""
    return set(pending.get("confirmed", [])) | {d["entrant"] for d in pending.get("disputes", [])}


def playable(game: str) -> bool:
    """Whether ``game`` can be played with real cards: its engine describes a score sheet."""
    try:
        engine = engines.get(game)
    except IllegalAction:
        return False
    return callable(getattr(engine, "score_sheet", None))


def score(game: str, config: dict[str, Any], sides: list[int], hands: Any) -> Sheet:
    """Check a whole game's hands and score them (``IllegalAction`` says what is wrong)."""
    if not playable(game):
        raise IllegalAction("no_board_game", _("This game cannot be entered by hand."))
    if not isinstance(hands, list) or not hands:
        raise IllegalAction("no_hands", _("Enter the game's result, hand by hand."))
    if len(hands) > MAX_HANDS:
        raise IllegalAction("too_many_hands", _("A game has at most {most} hands here."), most=MAX_HANDS)
    if any(not isinstance(hand, dict) for hand in hands):
        raise IllegalAction("bad_hand", _("Each hand is a set of named values."))
    sheet = Sheet(list(sides))
    engines.get(game).score_sheet(config).score(config, sheet, hands)
    return sheet
