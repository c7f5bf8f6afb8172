"""Pitch heuristics shared by the greedy bot and the strong bot's playouts.

Everything here works on plain data (hands, the trick, trump, the cards already
played) rather than on views, so that a playout of a whole hand stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engines.pitch import CARD_POINTS, RANK_OF, SUIT_OF, SUITS, trick_winner

Play = tuple[int, str]


def in_play_chance(players: int) -> float:
    """How likely a card I do not hold was dealt to somebody else."""
    return 6 * (players - 1) / 46


def suit_value(hand: Sequence[str], suit: str, players: int) -> float:
    """Expected points (High, Low, Jack, Game) for the pitcher of ``hand`` if ``suit`` is trump."""
    trumps = sorted((RANK_OF[c] for c in hand if SUIT_OF[c] == suit), reverse=True)
    if not trumps:
        return 0.0
    out = 1 - in_play_chance(players)  # the chance that one given card stayed out of play
    top, bottom = trumps[0], trumps[-1]
    high = out ** (14 - top)
    low = 0.85 * out ** (bottom - 2) if bottom <= 6 else 0.0
    if 11 in trumps:
        jack = 0.9 if top > 11 or len(trumps) >= 3 else 0.65
    else:
        jack = (1 - out) * (0.45 if top > 11 else 0.15)
    tens = sum(1 for c in hand if c.startswith("10"))
    honours = sum(1 for c in hand if RANK_OF[c] >= 12)
    game = min(0.9, 0.15 + 0.2 * tens + 0.06 * honours + 0.08 * len(trumps)) * (2.5 / (players + 0.5))
    return high + low + jack + game


def best_suit(hand: Sequence[str], players: int) -> tuple[str, float]:
    values = {s: suit_value(hand, s, players) for s in SUITS}
    suit = max(values, key=values.__getitem__)
    return suit, values[suit]


def opening_lead(hand: Sequence[str], suit: str) -> str:
    """The card that names ``suit`` trump: its highest, which also hunts the Jack."""
    return max((c for c in hand if SUIT_OF[c] == suit), key=RANK_OF.__getitem__)


def bid_choice(
    hand: Sequence[str], players: int, high: int, dealer: bool, caution: float = 0.0
) -> tuple[str, int]:
    """('pass', 0), ('bid', n) or ('pitch', 0) from a simple evaluation of the hand."""
    suit, value = best_suit(hand, players)
    value -= caution
    want = 4 if value >= 3.4 else int(value + 0.35)
    lowest = (2 if high == 0 else high) if dealer else high + 1
    if want >= 4 and high < 4:
        return "pitch", 0
    if want >= lowest and want >= 1:
        return "bid", min(want, 3)
    if dealer and high == 0:
        return "bid", 2
    return "pass", 0


def discard_cost(card: str, trump: str | None) -> float:
    """How much it hurts to give ``card`` away to somebody else's trick."""
    cost: float = CARD_POINTS[card]
    if SUIT_OF[card] == trump:
        rank = RANK_OF[card]
        cost += 6 + (20 if rank == 11 else 0) + (12 if rank <= 4 else 0) + rank / 2
    return cost + RANK_OF[card] / 20


def trick_stake(trick: Sequence[Play], trump: str | None) -> float:
    """Roughly what winning the cards already in the trick is worth."""
    stake = 0.0
    for _seat, card in trick:
        stake += CARD_POINTS[card] / 4
        if SUIT_OF[card] == trump:
            stake += 3 if RANK_OF[card] == 11 else 2 if RANK_OF[card] <= 4 else 0.3
    return stake


def choose_card(
    seat: int,
    hand: Sequence[str],
    legal: Sequence[str],
    trick: Sequence[Play],
    trump: str | None,
    played: set[str],
    players: int,
    side: Sequence[int],
) -> str:
    """The greedy play: win valuable tricks cheaply, feed partners, otherwise throw the cheapest card."""
    if len(legal) == 1:
        return legal[0]
    if trump is None:  # the pitcher's opening lead names trump
        return opening_lead(hand, best_suit(hand, players)[0])
    if not trick:
        return _lead(hand, legal, trump, played)
    winner = trick_winner(trick, trump)
    last = len(trick) == players - 1
    if side[winner] == side[seat] and (last or _is_boss(dict(trick)[winner], trump, played, hand)):
        return max(legal, key=lambda c: _feed_value(c, trump))
    beaters = [c for c in legal if trick_winner([*trick, (seat, c)], trump) == seat]
    if beaters:
        stake = trick_stake(trick, trump)
        # the cheapest card that wins, counting what it gives away should someone overtake it
        card = min(
            beaters, key=lambda c: discard_cost(c, trump) * (0.2 if last else 1.0) - _capture_bonus(c, trump)
        )
        safe = last or SUIT_OF[card] == trump or _is_boss(card, trump, played, hand)
        if safe and (stake > 0.2 or CARD_POINTS[card] > 0 or _capture_bonus(card, trump) > 0):
            return card
    return min(legal, key=lambda c: discard_cost(c, trump))


def _feed_value(card: str, trump: str) -> float:
    """What a card is worth on a trick my side is sure to win."""
    if SUIT_OF[card] != trump:
        return CARD_POINTS[card] - RANK_OF[card] / 20
    rank = RANK_OF[card]
    return 30.0 if rank == 11 else 20.0 if rank <= 3 else -1.0


def _capture_bonus(card: str, trump: str) -> float:
    """Winning with a card captures it: the Jack or a low trump is worth playing on a won trick."""
    if SUIT_OF[card] != trump:
        return CARD_POINTS[card] / 2
    rank = RANK_OF[card]
    return 25.0 if rank == 11 else 14.0 if rank <= 4 else 0.0


def _is_boss(card: str, trump: str, played: set[str], hand: Sequence[str]) -> bool:
    """Whether no unplayed card outside my hand can beat ``card`` when it is led."""
    suit, rank = SUIT_OF[card], RANK_OF[card]
    for r in range(rank + 1, 15):
        other = _name(r, suit)
        if other not in played and other not in hand:
            return False
    if suit != trump:
        return all(_name(r, trump) in played or _name(r, trump) in hand for r in range(2, 15))
    return True


def _name(rank: int, suit: str) -> str:
    return ("J", "Q", "K", "A")[rank - 11] + suit if rank > 10 else f"{rank}{suit}"


def _lead(hand: Sequence[str], legal: Sequence[str], trump: str, played: set[str]) -> str:
    trumps = [c for c in legal if SUIT_OF[c] == trump]
    if trumps:
        top = max(trumps, key=RANK_OF.__getitem__)
        if _is_boss(top, trump, played, hand) and RANK_OF[top] != 11:
            return top
    bosses = [c for c in legal if SUIT_OF[c] != trump and _is_boss(c, trump, played, hand)]
    if bosses:
        return max(bosses, key=lambda c: CARD_POINTS[c])
    return min(legal, key=lambda c: discard_cost(c, trump))
