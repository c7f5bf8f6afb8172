"""What an opponent's plays say about its hand: a weight for each sampled deal (Block only).

``determinize`` already keeps every sample consistent with the passes, so each deal it draws
is possible; but not every possible deal explains the plays equally well. If a player chooses among
its legal plays without preference, a hand that offered it three plays made the tile it played
three times less likely than a hand that offered just that one. The weight of a sample is the
product, over the opponents' plays this round (the lead excepted: every hand leads alike), of one
over the number of plays that sample's hand offered at that moment.

This assumes no preference, which is the least an opponent can be assumed to know. Against a
player with a real preference (the greedy bot sheds heavy tiles) the weights are slightly wrong,
but a hand is never ruled out: every weight stays positive.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engines.base import View
from games.engines.dominoes.state import ARMS, EMPTY_LAYOUT, END_ID, State
from games.engines.dominoes.tiles import HI, LO, TILE_ID

# One opponent play: who played, the tile, and the numbers the open ends showed just before it.
Play = tuple[int, int, tuple[int, ...]]


def opponent_plays(view: View) -> list[Play]:
    """The plays, after the lead, of the seats not on the viewer's side, in the order played."""
    seat = view["seat"]
    players = view["config"]["players"]
    partners = view["config"]["partnerships"]
    fives = view["variant"] == "all_fives"

    def rival(other: int) -> bool:
        return other != seat and not (partners and players == 4 and other % 2 == seat % 2)

    layout = EMPTY_LAYOUT
    out: list[Play] = []
    for move in view["moves"]:
        if move["type"] != "play":
            continue
        tile = TILE_ID[move["tile"]]
        if layout.placed and rival(move["seat"]):
            out.append((move["seat"], tile, tuple(layout.ends[arm] for arm in ARMS)))
        layout = layout.place(tile, END_ID[move["end"]], move["seat"], fives)
    return out


def choices(tiles: set[int], ends: tuple[int, ...]) -> int:
    """How many (tile, end) plays a hand offers: a tile counts once for each end it matches."""
    count = 0
    for tile in tiles:
        hi, lo = HI[tile], LO[tile]
        for shown in ends:
            if shown >= 0 and shown in (hi, lo):
                count += 1
    return count


def play_weight(view: View) -> Callable[[State], float] | None:
    """The weight of a sampled deal given the opponents' plays; None when there is nothing to weigh."""
    if view["variant"] != "block":  # drawn tiles would make the earlier hands unknown
        return None
    plays = opponent_plays(view)
    if not plays:
        return None

    def weight(state: State) -> float:
        held = {seat: set(state.hands[seat]) for seat, _, _ in plays}
        product = 1.0
        # Backwards: the hand before a play is the hand after it plus the tile played.
        for seat, tile, ends in reversed(plays):
            held[seat].add(tile)
            product /= choices(held[seat], ends)
        return product

    return weight
