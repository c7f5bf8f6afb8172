"""Round robin by Berger tables: everyone meets everyone once; with an odd count, one bye a round."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

Pair = tuple[Hashable | None, Hashable | None]


def berger_rounds(entrants: Sequence[Hashable]) -> list[list[Pair]]:
    """All rounds of a round robin as Berger's tables give them (entrant order = seeding numbers).

    With n entrants (a bye added for odd n), round r pairs the numbers a, b < n with
    a + b ≡ r + 1 (mod n - 1), and number n meets the a with 2a ≡ r + 1. Round 1 for n = 4 is
    1–4, 2–3; round 2 is 4–3, 1–2; round 3 is 2–4, 3–1. Each pair lists first who sits first (moves
    first; white in chess): number n (or the bye) is on table 1, first in even rounds; of two
    others a < b, a sits first when b − a is odd, b when it is even — so everyone alternates as far
    as an odd cycle allows (Berger's tables).
    """
    players: list[Hashable | None] = list(entrants)
    if len(set(players)) != len(players):
        raise ValueError("entrants must be distinct")
    if len(players) < 2:
        return []
    if len(players) % 2:
        players.append(None)
    n = len(players)
    m = n - 1
    rounds: list[list[Pair]] = []
    for r in range(1, n):
        k = (r + 1) % m
        pairs: list[Pair] = []
        alone = next(a for a in range(1, n) if (2 * a) % m == k)
        last = players[n - 1]
        pairs.append((last, players[alone - 1]) if r % 2 == 0 else (players[alone - 1], last))
        for a in range(1, n):
            b = (k - a) % m or m
            if a < b and a != alone and b != alone:
                first, second = (a, b) if (b - a) % 2 else (b, a)
                pairs.append((players[first - 1], players[second - 1]))
        rounds.append(pairs)
    return rounds
