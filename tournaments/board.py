"""Games played with real cards and tiles ("over the board"): a result as the players wrote it,
checked as far as the rules of record allow (``../shared/rules/*.md``).

Pure: no Django, no clock. A game's entry is the list of its hands (Skyjo and dominoes rounds,
Kazino games, Pitch hands) as the score sheet has them, each value per *side* — an entrant of the
table (a partnership is one side). ``score`` checks every hand, works out the points the way the
engines do (the Skyjo closer's doubling, the Pitch set-back, Kazino's card bands and bonuses,
dominoes' rounding to fives), checks that the game ended where the rules end it, and returns the
points per hand, the totals and the places — or raises ``IllegalAction`` with a sentence for players.

The hand shapes (JSON, sides keyed by the entrant's number as text):

- skyjo: ``{"totals": {side: card total}, "closer": side}``
- dominoes: Block and Draw ``{"points": {side: n}, "winners": [side]}``; All Fives
  ``{"play": {side: n}, "bonus": {side: n}, "winners": [side, …]}`` (a tied three-player block has two)
- kazino: ``{"cards": {side: n}}``, with ``"kings"`` and ``"aces"`` when the 4 Kings / 4 Aces bonus is on
- pitch: ``{"pitcher": side, "bid": 1-4, "high": side, "low": side, "jack": side|null, "game": side|null}``

Table codes: each table of a round played over the board has a short code, printed on its table
card, that lets a phone without an account enter and confirm that table's results. It is derived
from the tournament's secret (HMAC-SHA256), so it is never stored and never leaves the server but
on the organiser's pages.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from games.bounds import DIGITS, read_int
from games.engines.base import IllegalAction, _
from games.engines.dominoes.config import tiles_per_player
from games.engines.dominoes.tiles import PIPS
from games.engines.kazino.cards import card_points
from games.engines.skyjo.rules import round_points

if TYPE_CHECKING:
    from tournaments.log import Tournament

GAMES = ("skyjo", "dominoes", "kazino", "pitch")
MAX_HANDS = 100
# All Fives: points scored in play in one round are at most 45 a play (four arms of double-six ends,
# 48, taken to the multiple of 5 below) over at most 28 plays (#37: 10^30 was accepted and counted).
MAX_FIVES_PLAY = 45 * 28
#: A Skyjo grid's lowest and highest count: five −2 and seven −1; four columns of 12, 12, 11.
SKYJO_LOWEST, SKYJO_HIGHEST = -17, 140
ALL_PIPS = sum(PIPS)  # 168: every pip of a double-six set
KAZINO_CARDS = 52
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, no 1/I: read aloud and typed on a phone
CODE_LENGTH = 6


@dataclass
class Sheet:
    """A checked game: what each side scored in each hand, the totals and the places."""

    sides: list[int]
    rows: list[dict[int, Fraction]] = field(default_factory=list)
    # Per hand, what the check worked out beyond the points: {"doubled": side} (Skyjo), {"set_back":
    # side} (Pitch), {"winners": [...]} (dominoes).
    marks: list[dict[str, Any]] = field(default_factory=list)
    totals: dict[int, Fraction] = field(default_factory=dict)
    places: dict[int, int] = field(default_factory=dict)


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


def score(game: str, config: dict[str, Any], sides: list[int], hands: Any) -> Sheet:
    """Check a whole game's hands and score them (``IllegalAction`` says what is wrong)."""
    if game not in GAMES:
        raise IllegalAction("no_board_game", _("This game cannot be entered by hand."))
    if not isinstance(hands, list) or not hands:
        raise IllegalAction("no_hands", _("Enter the game's result, hand by hand."))
    if len(hands) > MAX_HANDS:
        raise IllegalAction("too_many_hands", _("A game has at most {most} hands here."), most=MAX_HANDS)
    if any(not isinstance(hand, dict) for hand in hands):
        raise IllegalAction("bad_hand", _("Each hand is a set of named values."))
    sheet = Sheet(list(sides))
    {"skyjo": _skyjo, "dominoes": _dominoes, "kazino": _kazino, "pitch": _pitch}[game](config, sheet, hands)
    return sheet


# --- helpers --------------------------------------------------------------------------------------


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    # ASCII digits of bounded length only (games/bounds.py): "²" is a digit to isdigit() but int() raises
    # on it, and int() on thousands of digits costs time before it refuses (#37).
    return read_int(value) if isinstance(value, str) else None


def _number(value: Any) -> Fraction | None:
    """A whole number or a half ("7½", "15/2", "7.5"); None if it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if not isinstance(value, str):
        return None
    text = value.strip().replace("½", ".5").replace(",", ".")
    # A score is short and written plainly: no exponent ("1e999999" would build a huge number), no
    # digits but ASCII ones, nothing longer than a bounded number (games/bounds.py).
    if len(text) > DIGITS or not text.isascii() or not set(text) <= set("0123456789-./"):
        return None
    if text.startswith(".5"):
        text = "0" + text
    try:
        number = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
    return number if (2 * number).denominator == 1 else None


def _per_side(
    hand: dict[str, Any], name: str, sides: list[int], line: int, halves: bool = False
) -> dict[int, Fraction]:
    values = hand.get(name)
    if not isinstance(values, dict) or set(values) != {str(s) for s in sides}:
        raise IllegalAction("missing_number", _("Line {hand}: write a number for every player."), hand=line)
    out: dict[int, Fraction] = {}
    for side in sides:
        raw = values[str(side)]
        number = _number(raw) if halves else (None if _whole(raw) is None else Fraction(_whole(raw) or 0))
        if number is None:
            raise IllegalAction("not_a_number", _("Line {hand}: every score is a whole number."), hand=line)
        out[side] = number
    return out


def _side(value: Any, sides: list[int]) -> int | None:
    number = _whole(value)
    return number if number in sides else None


def _ranked(totals: dict[int, Fraction], lower_wins: bool) -> dict[int, int]:
    """1-based places, equal totals sharing."""
    sign = 1 if lower_wins else -1
    return {s: 1 + sum(1 for o in totals.values() if sign * o < sign * v) for s, v in totals.items()}


def _add(sheet: Sheet, points: dict[int, Fraction], mark: dict[str, Any] | None = None) -> None:
    sheet.rows.append(points)
    sheet.marks.append(mark or {})
    for side, value in points.items():
        sheet.totals[side] = sheet.totals.get(side, Fraction(0)) + value


# --- Skyjo ---------------------------------------------------------------------------------------


def _skyjo(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    """Round totals as counted; the closer must be strictly lowest, else a positive total doubles; the
    game ends after the round in which someone reaches the target (lowest total wins)."""
    target = int(config.get("target", 100))
    sides = sheet.sides
    sheet.totals = {s: Fraction(0) for s in sides}
    for line, hand in enumerate(hands, 1):
        if line > 1 and max(sheet.totals.values()) >= target:
            raise IllegalAction(
                "after_the_end",
                _(
                    "The game was over after round {round} (someone had {target} points): remove the rounds after it."
                ),
                round=line - 1,
                target=target,
            )
        raw = _per_side(hand, "totals", sides, line)
        if any(not SKYJO_LOWEST <= v <= SKYJO_HIGHEST for v in raw.values()):
            raise IllegalAction(
                "bad_total",
                _("Round {round}: a grid counts from {low} to {high}."),
                round=line,
                low=SKYJO_LOWEST,
                high=SKYJO_HIGHEST,
            )
        closer = _side(hand.get("closer"), sides)
        if closer is None:
            raise IllegalAction("no_closer", _("Round {round}: say who closed the round."), round=line)
        totals = [int(raw[s]) for s in sides]
        points, doubled = round_points(totals, sides.index(closer))
        _add(
            sheet,
            {s: Fraction(p) for s, p in zip(sides, points, strict=True)},
            {"closer": closer, "doubled": closer if doubled else None},
        )
    if max(sheet.totals.values()) < target:
        raise IllegalAction(
            "not_over", _("Nobody has reached {target} points: the game is not over yet."), target=target
        )
    sheet.places = _ranked(sheet.totals, lower_wins=True)


# --- Dominoes ------------------------------------------------------------------------------------


def _most_pips(tiles: int) -> int:
    return sum(sorted(PIPS, reverse=True)[:tiles])


def _dominoes(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    variant, players, target = config["variant"], int(config["players"]), int(config["target"])
    sides = sheet.sides
    fives = variant == "all_fives"
    three = players == 3 and not config.get("partnerships")
    seats_per_side = 2 if config.get("partnerships") else 1
    # What a round winner can score at most: the other hands' pips (Block: nobody draws).
    if variant == "block":
        most = _most_pips((players - seats_per_side) * tiles_per_player(variant, players))
    else:
        most = ALL_PIPS
    sheet.totals = {s: Fraction(0) for s in sides}
    for line, hand in enumerate(hands, 1):
        _dominoes_over_before(sheet, target, line)
        raw_winners = hand.get("winners", [])
        if not isinstance(raw_winners, list):
            raw_winners = [raw_winners]
        winners = [_side(w, sides) for w in raw_winners if w not in (None, "")]
        won = [int(w) for w in winners if w is not None]
        # One round winner, or two tied for the lowest hand in All Fives at three.
        if len(won) != len(winners) or len(set(won)) != len(won) or len(won) > (2 if fives and three else 1):
            raise IllegalAction(
                "bad_round_winner", _("Round {round}: the round winner is a player at the table."), round=line
            )
        if fives:
            play = _per_side(hand, "play", sides, line)
            bonus = _per_side(hand, "bonus", sides, line, halves=three)
            _at_most(
                play,
                MAX_FIVES_PLAY,
                line,
                "too_many_points",
                _("Round {round}: the points scored in play are at most {most}."),
            )
            if any(v < 0 or v % 5 for v in play.values()):
                raise IllegalAction(
                    "not_fives", _("Round {round}: in All Fives every score is a multiple of 5."), round=line
                )
            step = Fraction(5, 2) if len(won) == 2 else Fraction(5)
            if any(v < 0 or v % step for v in bonus.values()):
                raise IllegalAction(
                    "not_fives", _("Round {round}: in All Fives every score is a multiple of 5."), round=line
                )
            if any(v and s not in won for s, v in bonus.items()):
                raise IllegalAction(
                    "bonus_to_winner", _("Round {round}: only the round winner gets the bonus."), round=line
                )
            if len(won) == 2 and bonus[won[0]] != bonus[won[1]]:
                raise IllegalAction(
                    "split_bonus",
                    _("Round {round}: two players tied for the lowest hand share the bonus equally."),
                    round=line,
                )
            _pips_at_most(bonus, 170, line)
            points = {s: play[s] + bonus[s] for s in sides}
        else:
            points = _per_side(hand, "points", sides, line)
            if any(v < 0 for v in points.values()):
                raise IllegalAction(
                    "not_a_number", _("Line {hand}: every score is a whole number."), hand=line
                )
            if any(v and s not in won for s, v in points.items()):
                raise IllegalAction(
                    "only_winner_scores",
                    _("Round {round}: in Block and Draw only the round winner scores."),
                    round=line,
                )
            _pips_at_most(points, most, line)
        _add(sheet, points, {"winners": won})
    _won(
        sheet,
        _sole_leader(sheet.totals, target),
        "not_over_alone",
        _("Nobody has reached {target} points alone: the game is not over yet."),
        target,
    )


def _pips_at_most(points: dict[int, Fraction], most: int, line: int) -> None:
    """A round winner scores the pips left in the other hands: no more than ``most``."""
    pips = _("Round {round}: the winner scores the pips left in the other hands, at most {most}.")
    _at_most(points, most, line, "too_many_pips", pips)


def _at_most(points: dict[int, Fraction], most: int, line: int, code: str, sentence: str) -> None:
    """Round ``line`` refused (``code``, ``sentence``) when a side's points there pass ``most``."""
    if any(v > most for v in points.values()):
        raise IllegalAction(code, sentence, round=line, most=most)


def _won(sheet: Sheet, winner: int | None, code: str, not_over: str, target: int) -> None:
    """The places, highest total first, of a game someone won; without a winner the sheet is
    refused (``code``, ``not_over``): the game is not over yet."""
    if winner is None:
        raise IllegalAction(code, not_over, target=target)
    sheet.places = _ranked(sheet.totals, lower_wins=False)


def _sole_leader(totals: dict[int, Fraction], target: int) -> int | None:
    best = max(totals.values())
    leaders = [s for s, v in totals.items() if v == best]
    return leaders[0] if best >= target and len(leaders) == 1 else None


def _dominoes_over_before(sheet: Sheet, target: int, line: int) -> None:
    if line > 1 and _sole_leader(sheet.totals, target) is not None:
        raise IllegalAction(
            "after_the_end",
            _(
                "The game was over after round {round} (one side alone at {target} points or more): remove the rounds after it."
            ),
            round=line - 1,
            target=target,
        )


# --- Kazino --------------------------------------------------------------------------------------


def _kazino(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    """Each game: the cards each player captured (the last capture takes what is left on the table),
    52 in all; with the bonus option, who took the four Kings and the four Aces."""
    sides = sheet.sides
    bonus = bool(config.get("kings_aces_bonus"))
    single = config.get("match") == "single"
    target = int(config.get("target", 160))
    if single and len(hands) != 1:
        raise IllegalAction("one_game", _("This match is a single game: enter that game only."))
    sheet.totals = {s: Fraction(0) for s in sides}
    for line, hand in enumerate(hands, 1):
        if line > 1 and _kazino_winner(sheet.totals, target) is not None:
            raise IllegalAction(
                "after_the_match",
                _("The match was over after game {game}: remove the games after it."),
                game=line - 1,
            )
        cards = _per_side(hand, "cards", sides, line)
        if any(v < 0 for v in cards.values()) or sum(cards.values()) != KAZINO_CARDS:
            raise IllegalAction(
                "cards_not_52",
                _(
                    "Game {game}: the cards captured add up to {total}, not 52 (the last capture takes the cards left on the table)."
                ),
                game=line,
                total=int(sum(cards.values())),
            )
        points = {s: Fraction(card_points(int(cards[s]))) for s in sides}
        if bonus:
            for name, sentence in (
                ("kings", _("Game {game}: the Kings captured add up to {total}, not 4.")),
                ("aces", _("Game {game}: the Aces captured add up to {total}, not 4.")),
            ):
                counts = _per_side(hand, name, sides, line)
                if any(v < 0 for v in counts.values()) or sum(counts.values()) != 4:
                    raise IllegalAction(f"{name}_not_4", sentence, game=line, total=int(sum(counts.values())))
                for s in sides:
                    if counts[s] == 4:
                        points[s] += 10
            kings, aces = _per_side(hand, "kings", sides, line), _per_side(hand, "aces", sides, line)
            if any(kings[s] + aces[s] > cards[s] for s in sides):
                raise IllegalAction(
                    "more_than_cards",
                    _("Game {game}: nobody captures more Kings and Aces than cards."),
                    game=line,
                )
        _add(sheet, points)
    if single:
        sheet.places = _ranked(sheet.totals, lower_wins=False)
        return
    _won(
        sheet,
        _kazino_winner(sheet.totals, target),
        "match_not_over",
        _("Nobody has won the match yet: the first to {target} points with more than the other wins."),
        target,
    )


def _kazino_winner(totals: dict[int, Fraction], target: int) -> int | None:
    (a, x), (b, y) = totals.items()
    if max(x, y) < target or x == y:
        return None
    return a if x > y else b


# --- Pitch ---------------------------------------------------------------------------------------


def _pitch(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    """Each hand: the pitcher and the bid, who won High, Low, Jack (or nobody: not in play) and Game
    (or nobody: tied). A pitcher short of the bid loses it; the game ends at the end of a hand in
    which the pitcher's side has reached the target (or at the table's hand limit, if it has one)."""
    sides = sheet.sides
    target = int(config.get("target", 7))
    limit = config.get("max_hands")
    sheet.totals = {s: Fraction(0) for s in sides}
    winners: list[int] = []
    for line, hand in enumerate(hands, 1):
        if winners:
            raise IllegalAction(
                "after_the_end",
                _("The game was over after hand {hand}: remove the hands after it."),
                hand=line - 1,
            )
        pitcher = _side(hand.get("pitcher"), sides)
        if pitcher is None:
            raise IllegalAction("no_pitcher", _("Hand {hand}: say who the pitcher was."), hand=line)
        bid = _whole(hand.get("bid"))
        if bid is None or not 1 <= bid <= 4:
            raise IllegalAction("bad_bid", _("Hand {hand}: a bid is from 1 to 4."), hand=line)
        high, low = _side(hand.get("high"), sides), _side(hand.get("low"), sides)
        if high is None or low is None:
            raise IllegalAction(
                "high_and_low", _("Hand {hand}: someone always wins High and Low: say who."), hand=line
            )
        points = {s: Fraction(0) for s in sides}
        points[high] += 1
        points[low] += 1
        for name in ("jack", "game"):
            value = hand.get(name)
            if value in (None, ""):
                continue
            who = _side(value, sides)
            if who is None:
                raise IllegalAction(
                    "bad_award",
                    _("Hand {hand}: Jack and Game go to a player at the table, or to nobody."),
                    hand=line,
                )
            points[who] += 1
        made = points[pitcher] >= bid
        if not made:
            points[pitcher] = Fraction(-bid)
        _add(sheet, points, {"pitcher": pitcher, "bid": bid, "set_back": None if made else pitcher})
        if sheet.totals[pitcher] >= target:
            winners = [pitcher]
        elif limit is not None and line >= int(limit):
            best = max(sheet.totals.values())
            winners = [s for s in sides if sheet.totals[s] == best]
    if not winners:
        raise IllegalAction(
            "pitch_not_over",
            _("No pitcher has ended a hand with {target} points: the game is not over yet."),
            target=target,
        )
    others = {s: v for s, v in sheet.totals.items() if s not in winners}
    sheet.places = {s: 1 for s in winners}
    sheet.places.update({s: len(winners) + p for s, p in _ranked(others, lower_wins=False).items()})
