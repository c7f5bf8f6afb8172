"""Skyjo's cards, grid geometry, the state and the event fold (``apply``).

``apply`` only records what an event says happened; every rule (who starts, which
column is wiped, who closed, the round's points) is decided in ``rules.py`` and
written into the events, so old games replay the same even if a rule changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engines.base import Event

ROWS = 3
COLS = 4
CELLS = ROWS * COLS
#: Cells are numbered row by row: cell = 4 * row + column. Column c holds cells c, c+4, c+8, top first.
COLUMNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(col + COLS * row for row in range(ROWS)) for col in range(COLS)
)

MIN_CARD = -2
MAX_CARD = 12
#: The 150 cards: five -2, ten -1, fifteen 0 and ten each of 1..12, in ascending order.
FULL_DECK: tuple[int, ...] = (
    (-2,) * 5 + (-1,) * 10 + (0,) * 15 + tuple(v for v in range(1, 13) for _i in range(10))
)

OPENING = "opening"  # every seat still turning its two opening cards
PLAY = "play"  # turns in seat order
SCORED = "scored"  # a round was scored; the next deal or the end follows in the same batch
OVER = "over"
SETUP = "setup"  # before the first deal

Grid = tuple[int | None, ...]  # a seat's 12 cells; None = the cell's column was wiped out
Flags = tuple[bool, ...]


@dataclass(frozen=True)
class State:
    """Everything about a game. Immutable: ``apply`` returns a new one."""

    players: int = 0
    target: int = 100
    seed: int = 0
    hand: int = 0  # 1-based round number; 0 before the first deal
    phase: str = SETUP
    cards: tuple[Grid, ...] = ()
    up: tuple[Flags, ...] = ()  # face up (wiped cells count as up)
    discard: tuple[int, ...] = ()  # oldest first; the top card is last
    draw_pile: tuple[int, ...] = ()  # the next card drawn is first
    drawn: int | None = None  # the card the seat to play has drawn and not yet placed or discarded
    turn: int | None = None
    starter: int | None = None
    closer: int | None = None
    reshuffles: int = 0  # in this round
    scores: tuple[int, ...] = ()
    history: tuple[dict[str, Any], ...] = ()  # one record per finished round (JSON-ready)


def replace(state: State, **changes: Any) -> State:
    """A copy of ``state`` with ``changes``: ``dataclasses.replace`` without its per-call cost."""
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def hidden_cells(state: State, seat: int) -> list[int]:
    cards, up = state.cards[seat], state.up[seat]
    return [cell for cell in range(CELLS) if not up[cell] and cards[cell] is not None]


def live_cells(state: State, seat: int) -> list[int]:
    """Cells still in play (not wiped out), hidden or face up."""
    cards = state.cards[seat]
    return [cell for cell in range(CELLS) if cards[cell] is not None]


def opened_count(state: State, seat: int) -> int:
    return sum(state.up[seat])


def _with_cell(state: State, seat: int, cell: int, card: int | None, up: bool = True) -> State:
    row = list(state.cards[seat])
    row[cell] = card
    flags = list(state.up[seat])
    flags[cell] = up
    cards = state.cards[:seat] + (tuple(row),) + state.cards[seat + 1 :]
    ups = state.up[:seat] + (tuple(flags),) + state.up[seat + 1 :]
    return replace(state, cards=cards, up=ups)


def _turn_up(state: State, seat: int, cells: list[int]) -> State:
    flags = list(state.up[seat])
    for cell in cells:
        flags[cell] = True
    return replace(state, up=state.up[:seat] + (tuple(flags),) + state.up[seat + 1 :])


def _setup(state: State, e: Event) -> State:
    config = e["config"]
    players = config["players"]
    return State(players=players, target=config["target"], seed=e["seed"], scores=(0,) * players)


def _dealt(state: State, e: Event) -> State:
    return replace(
        state,
        hand=e["hand"],
        phase=OPENING,
        cards=tuple(tuple(grid) for grid in e["grids"]),
        up=((False,) * CELLS,) * state.players,
        discard=(e["discard"],),
        draw_pile=tuple(e["draw_pile"]),
        drawn=None,
        turn=None,
        starter=None,
        closer=None,
        reshuffles=0,
    )


def _revealed(state: State, e: Event) -> State:
    return _turn_up(state, e["seat"], [e["cell"]])


def _round_started(state: State, e: Event) -> State:
    return replace(state, phase=PLAY, starter=e["seat"], turn=e["seat"])


def _took_discard(state: State, e: Event) -> State:
    state = _with_cell(state, e["seat"], e["cell"], e["card"])
    return replace(state, discard=state.discard[:-1] + (e["replaced"],))


def _drew(state: State, e: Event) -> State:
    return replace(state, drawn=e["card"], draw_pile=state.draw_pile[1:])


def _reshuffled(state: State, e: Event) -> State:
    return replace(
        state, discard=state.discard[-1:], draw_pile=tuple(e["draw_pile"]), reshuffles=state.reshuffles + 1
    )


def _placed(state: State, e: Event) -> State:
    state = _with_cell(state, e["seat"], e["cell"], e["card"])
    return replace(state, drawn=None, discard=state.discard + (e["replaced"],))


def _discarded(state: State, e: Event) -> State:
    return replace(state, drawn=None, discard=state.discard + (e["card"],))


def _turned(state: State, e: Event) -> State:
    return _turn_up(state, e["seat"], [e["cell"]])


def _wiped(state: State, e: Event) -> State:
    seat = e["seat"]
    row = list(state.cards[seat])
    for cell in COLUMNS[e["column"]]:
        row[cell] = None
    state = replace(state, cards=state.cards[:seat] + (tuple(row),) + state.cards[seat + 1 :])
    state = _turn_up(state, seat, list(COLUMNS[e["column"]]))
    return replace(state, discard=state.discard + tuple(e["cards"]))


def _closed(state: State, e: Event) -> State:
    return replace(state, closer=e["seat"])


def _next_turn(state: State, e: Event) -> State:
    return replace(state, turn=e["seat"])


def _final_reveal(state: State, e: Event) -> State:
    return _turn_up(state, e["seat"], e["cells"])


def _round_ended(state: State, e: Event) -> State:
    record = {key: e[key] for key in ("hand", "closer", "totals", "doubled", "points", "scores", "grids")}
    return replace(
        state, phase=SCORED, turn=None, scores=tuple(e["scores"]), history=state.history + (record,)
    )


def _game_ended(state: State, e: Event) -> State:
    return replace(state, phase=OVER)


_APPLY = {
    "setup": _setup,
    "dealt": _dealt,
    "revealed": _revealed,
    "round_started": _round_started,
    "took_discard": _took_discard,
    "drew": _drew,
    "reshuffled": _reshuffled,
    "placed": _placed,
    "discarded": _discarded,
    "turned": _turned,
    "wiped": _wiped,
    "closed": _closed,
    "next_turn": _next_turn,
    "final_reveal": _final_reveal,
    "round_ended": _round_ended,
    "game_ended": _game_ended,
}


def apply(state: State, event: Event) -> State:
    """The state after ``event``: a pure fold that never draws a random number."""
    try:
        step = _APPLY[event["type"]]
    except KeyError:
        raise ValueError(f"not a Skyjo event: {event.get('type')!r}") from None
    return step(state, event)


def replay(events: list[Event]) -> State:
    state = State()
    for event in events:
        state = apply(state, event)
    return state
