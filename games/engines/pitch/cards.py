"""Pitch cards: notation, order, trick points, and the pure rules of a trick and of a hand's points."""

from __future__ import annotations

from collections.abc import Sequence

NAME = "pitch"
SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
SUIT_OF: dict[str, str] = {c: c[-1] for c in DECK}
RANK_OF: dict[str, int] = {r + s: i for s in SUITS for i, r in enumerate(RANKS, start=2)}
CARD_POINTS: dict[str, int] = {c: {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(c[:-1], 0) for c in DECK}
SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
HAND_SIZE = 6
TRICKS = HAND_SIZE
_SORT_KEY: dict[str, int] = {c: i for i, c in enumerate(DECK)}

Play = tuple[int, str]  # (seat, card)
Trick = tuple[Play, ...]


def sort_cards(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=_SORT_KEY.__getitem__)


def trick_winner(trick: Sequence[Play], trump: str) -> int:
    """The highest trump, or failing that the highest card of the suit led."""
    led = SUIT_OF[trick[0][1]]
    best_seat, best = trick[0][0], -1
    for seat, card in trick:
        s = SUIT_OF[card]
        key = RANK_OF[card] + (40 if s == trump else 20 if s == led else 0)
        if key > best:
            best_seat, best = seat, key
    return best_seat


def playable(hand: Sequence[str], trick: Sequence[Play], trump: str | None) -> list[str]:
    """Any card to lead; holding the suit led, that suit or a trump; otherwise any card."""
    if not trick:
        return list(hand)
    led = SUIT_OF[trick[0][1]]
    if any(SUIT_OF[c] == led for c in hand):
        return [c for c in hand if SUIT_OF[c] == led or SUIT_OF[c] == trump]
    return list(hand)


def hand_awards(captured: Sequence[Sequence[str]], trump: str) -> tuple[dict[str, int | None], list[int]]:
    """Who (by index into ``captured``) won High, Low, Jack and Game, and the trick points of each.

    Every dealt card is played, so the trumps "in play" are exactly the captured ones.
    """
    high = low = jack = None
    hi_rank, lo_rank = 0, 99
    jack_card = "J" + trump
    game_points = []
    for who, cards in enumerate(captured):
        total = 0
        for card in cards:
            total += CARD_POINTS[card]
            if SUIT_OF[card] == trump:
                r = RANK_OF[card]
                if r > hi_rank:
                    high, hi_rank = who, r
                if r < lo_rank:
                    low, lo_rank = who, r
                if card == jack_card:
                    jack = who
        game_points.append(total)
    best = max(game_points)
    game = game_points.index(best) if game_points.count(best) == 1 else None
    return {"high": high, "low": low, "jack": jack, "game": game}, game_points


def voids(players: int, trump: str | None, tricks: Sequence[Trick]) -> list[set[str]]:
    """Suits each seat has shown out of.

    A trump may be played even by a seat holding the suit led, so only a card that is
    neither the suit led nor trump proves a void (in trump itself when trump was led).
    """
    found: list[set[str]] = [set() for _ in range(players)]
    for trick in tricks:
        led = SUIT_OF[trick[0][1]]
        for seat, card in trick[1:]:
            s = SUIT_OF[card]
            if s != led and s != trump:
                found[seat].add(led)
    return found
