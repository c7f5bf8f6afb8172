"""The 28 tiles of a double-six set as small integers, with lookup tables.

A tile is an id 0..27; its notation is ``"hi-lo"`` (high half first, ``"5-3"``).
Everything inside the engine works on ids; notation appears only at the JSON edge.
"""

from __future__ import annotations

TILE_NAMES: tuple[str, ...] = tuple(f"{hi}-{lo}" for hi in range(7) for lo in range(hi + 1))
HI: tuple[int, ...] = tuple(hi for hi in range(7) for lo in range(hi + 1))
LO: tuple[int, ...] = tuple(lo for hi in range(7) for lo in range(hi + 1))
PIPS: tuple[int, ...] = tuple(h + lo for h, lo in zip(HI, LO, strict=True))
DOUBLE: tuple[bool, ...] = tuple(h == lo for h, lo in zip(HI, LO, strict=True))
# Bit n is set when the tile shows the number n on either half.
MASK: tuple[int, ...] = tuple((1 << h) | (1 << lo) for h, lo in zip(HI, LO, strict=True))
TILE_ID: dict[str, int] = {name: i for i, name in enumerate(TILE_NAMES)}
ALL_TILES: tuple[int, ...] = tuple(range(len(TILE_NAMES)))


def name(tile: int) -> str:
    return TILE_NAMES[tile]


def names(tiles: tuple[int, ...] | list[int]) -> list[str]:
    return [TILE_NAMES[t] for t in tiles]


def parse(text: object) -> int | None:
    """The id of a tile written ``"5-3"``; None for anything else (including ``"3-5"``)."""
    if not isinstance(text, str):
        return None
    return TILE_ID.get(text)


def other_half(tile: int, shown: int) -> int:
    """The half left open when ``tile`` is matched against an end showing ``shown``."""
    return LO[tile] if HI[tile] == shown else HI[tile]


def numbers(mask: int) -> list[int]:
    return [n for n in range(7) if mask >> n & 1]
