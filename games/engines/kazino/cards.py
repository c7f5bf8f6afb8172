"""Card notation, values and the canonical order of Kazino cards."""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

#: The 52 cards in canonical order: by rank (A first), then suit (S H D C).
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)

#: Rank of each card ("10H" -> "10").
RANK: dict[str, str] = {rank + suit: rank for rank in RANKS for suit in SUITS}

#: Value of each card inside a sum or a build: A 1, 2-10 their number, J 11, Q 12, K 13.
VALUE: dict[str, int] = {rank + suit: i + 1 for i, rank in enumerate(RANKS) for suit in SUITS}

#: Position in the canonical order, used to sort cards wherever a list must be canonical.
ORDER: dict[str, int] = {card: i for i, card in enumerate(DECK)}

ACE_HIGH = 14
MAX_BUILD = 14


def is_ace(card: str) -> bool:
    return RANK[card] == "A"


def play_values(card: str) -> tuple[int, ...]:
    """The values a card may be played at: an Ace 1 or 14, any other card its value."""
    return (1, ACE_HIGH) if RANK[card] == "A" else (VALUE[card],)


def sort_cards(cards: list[str] | tuple[str, ...]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def group_key(group: list[str]) -> list[int]:
    return [ORDER[card] for card in group]


def captures_value(card: str, value: int) -> bool:
    """Whether ``card`` can be played at ``value`` (so capture a build of that value)."""
    return value in play_values(card)


def card_points(captured: int) -> int:
    """Points for the number of cards captured in one game (rules page, "Scoring")."""
    if captured >= 48:
        return 30
    if captured >= 40:
        return 25
    if captured >= 36:
        return 20
    if captured >= 33:
        return 15
    if captured >= 27:
        return 10
    return 0
