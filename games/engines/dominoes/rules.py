"""Events in, state out (``apply``), and actions in, events out (``decide``, ``legal_actions``)."""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Action, Event, IllegalAction, _

from .config import tiles_per_player
from .state import (
    CENTER,
    DRAW,
    EMPTY_LAYOUT,
    END_ID,
    END_NAME,
    PASS,
    PLAY,
    RoundSummary,
    State,
    can_play,
    playable,
)
from .tiles import ALL_TILES, MASK, PIPS, TILE_ID, TILE_NAMES, names, parse

ACTION_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"type", "tile", "end"}),
    "draw": frozenset({"type"}),
    "pass": frozenset({"type"}),
    "next_round": frozenset({"type"}),
}


# ---------------------------------------------------------------- dealing


def shuffled_deck(seed: int, round_no: int) -> list[int]:
    deck = list(ALL_TILES)
    random.Random(f"{seed}:deal:{round_no}").shuffle(deck)
    return deck


def drawn_leader(seed: int, round_no: int, players: int) -> int:
    return random.Random(f"{seed}:lead:{round_no}").randrange(players)


def deal_event(config: dict[str, Any], deck: list[int], round_no: int, leader: int, lead_by: str) -> Event:
    """Seat 0 takes the first tiles of the deck, seat 1 the next, and so on; the rest is the boneyard."""
    n = config["players"]
    k = tiles_per_player(config["variant"], n)
    return {
        "type": "deal",
        "hand": round_no,
        "hands": [names(sorted(deck[i * k : (i + 1) * k])) for i in range(n)],
        "boneyard": names(deck[n * k :]),
        "leader": leader,
        "lead_by": lead_by,
    }


def opening_events(config: dict[str, Any], seed: int) -> list[Event]:
    deck = [TILE_ID[t] for t in config["deck"]] if config["deck"] is not None else shuffled_deck(seed, 1)
    if config["first"] is not None:
        leader, lead_by = config["first"], "choice"
    else:
        leader, lead_by = drawn_leader(seed, 1, config["players"]), "draw"
    return [
        {"type": "setup", "config": config, "seed": seed},
        deal_event(config, deck, 1, leader, lead_by),
    ]


def deal_of(config: dict[str, Any], seed: int, round_no: int) -> dict[str, Any]:
    """Round ``round_no``'s deal as ``deal_event`` will log it: the hands, and the boneyard in draw order.

    For the fair-deal commitment (docs/fair-deals.md): ``open`` becomes known as the round is played,
    ``stock`` is committed position by position so that only the tiles drawn are ever opened.
    """
    if round_no == 1 and config["deck"] is not None:
        deck = [TILE_ID[t] for t in config["deck"]]
    else:
        deck = shuffled_deck(seed, round_no)
    n = config["players"]
    k = tiles_per_player(config["variant"], n)
    hands = [names(sorted(deck[i * k : (i + 1) * k])) for i in range(n)]
    return {"open": {"hands": hands}, "stock": names(deck[n * k :])}


def deals_in(events: list[Event]) -> dict[int, dict[str, Any]]:
    """Every round dealt in ``events``: its hands as logged, and the tiles drawn from its boneyard."""
    deals: dict[int, dict[str, Any]] = {}
    drawn: list[str] | None = None
    for event in events:
        if event["type"] == "deal":
            drawn = []
            deals[event["hand"]] = {"open": {"hands": event["hands"]}, "drawn": drawn}
        elif event["type"] == "draw" and drawn is not None:
            drawn.append(event["tile"])
    return deals


# ---------------------------------------------------------------- apply


def apply(state: State, event: Event) -> State:
    kind = event["type"]
    if kind == "play":
        return _apply_play(state, event)
    if kind == "draw":
        return _apply_draw(state, event)
    if kind == "pass":
        return _apply_pass(state, event)
    if kind == "deal":
        return _apply_deal(state, event)
    if kind == "round_end":
        return _apply_round_end(state, event)
    if kind == "next_round":
        return state._replace(ready=(*state.ready, event["seat"]))
    if kind == "game_over":
        return state._replace(phase="over", winners=tuple(event["winners"]), end_reason=event["reason"])
    if kind == "setup":
        config = dict(event["config"])
        if config.get("deck") is not None:
            config["deck"] = list(config["deck"])
        sides = 2 if config["partnerships"] else config["players"]
        return State(config=config, seed=event["seed"], phase="dealing", scores=(0,) * sides)
    return state  # an unknown event type changes nothing (forward compatibility of old logs)


def _apply_deal(state: State, event: Event) -> State:
    leader = event["leader"]
    return state._replace(
        phase="play",
        round_no=event["hand"],
        hands=tuple(tuple(sorted(TILE_ID[t] for t in hand)) for hand in event["hands"]),
        boneyard=tuple(TILE_ID[t] for t in event["boneyard"]),
        layout=EMPTY_LAYOUT,
        turn=leader,
        passes=0,
        leader=leader,
        lead_by=event["lead_by"],
        moves=(),
        ready=(),
    )


def _apply_play(state: State, event: Event) -> State:
    # The hottest path of replay and search: build the new state positionally.
    seat = event["seat"]
    tile = TILE_ID[event["tile"]]
    arm = END_ID[event["end"]]
    scored = event["scored"]
    config = state.config
    hands = state.hands
    hand = hands[seat]
    i = hand.index(tile)
    scores = state.scores
    if scored:
        side = seat % 2 if config["partnerships"] else seat
        scores = (*scores[:side], scores[side] + scored, *scores[side + 1 :])
    return State(
        config,
        state.seed,
        state.phase,
        state.round_no,
        (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :]),
        state.boneyard,
        state.layout.place(tile, arm, seat, config["variant"] == "all_fives"),
        (seat + 1) % config["players"],
        0,
        scores,
        state.leader,
        state.lead_by,
        (*state.moves, (seat, PLAY, tile, arm, scored, 0)),
        state.ready,
        state.last_round,
        state.winners,
        state.end_reason,
        state.past_rounds,
    )


def _apply_draw(state: State, event: Event) -> State:
    seat = event["seat"]
    tile = TILE_ID[event["tile"]]
    hands = list(state.hands)
    hands[seat] = tuple(sorted((*hands[seat], tile)))
    boneyard = (
        state.boneyard[1:] if state.boneyard[:1] == (tile,) else tuple(t for t in state.boneyard if t != tile)
    )
    return state._replace(
        hands=tuple(hands),
        boneyard=boneyard,
        moves=(*state.moves, (seat, DRAW, -1, -1, 0, state.layout.open_mask())),
    )


def _apply_pass(state: State, event: Event) -> State:
    seat = event["seat"]
    return state._replace(
        turn=(seat + 1) % state.config["players"],
        passes=state.passes + 1,
        moves=(*state.moves, (seat, PASS, -1, -1, 0, state.layout.open_mask())),
    )


def _apply_round_end(state: State, event: Event) -> State:
    bonus = event["bonus"]  # per seat; seat i sits on side i (side 0 = seats 0+2, side 1 = seats 1+3)
    scores = tuple(s + bonus[side] for side, s in enumerate(state.scores))
    went_out = event["went_out"]
    summary: RoundSummary = (
        event["reason"],
        -1 if went_out is None else went_out,
        tuple(event["winners"]),
        tuple(event["pips"]),
        tuple(bonus),
        event["hand"],
    )
    return state._replace(
        phase="count",
        scores=scores,
        last_round=summary,
        ready=(),
        turn=-1,
        past_rounds=(*state.past_rounds, (summary, scores)),
    )


# ---------------------------------------------------------------- scoring


def round5(points: int) -> int:
    """To the nearest multiple of five: ...2 rounds down, ...3 rounds up."""
    return (points + 2) // 5 * 5


def sole_leader(state: State) -> int | None:
    """The side that leads alone at or above the target, if any."""
    best = max(state.scores)
    if best >= 2 * state.config["target"] and state.scores.count(best) == 1:
        return state.scores.index(best)
    return None


def side_seats(state: State, side: int) -> list[int]:
    return [s for s in range(state.players) if state.side(s) == side]


def round_end_event(state: State, went_out: int | None) -> Event:
    """The count after a round: who won it, every hand's pips, each side's bonus (half-points)."""
    n = state.players
    pips = [sum(PIPS[t] for t in hand) for hand in state.hands]
    sides = len(state.scores)
    totals = [0] * sides
    for seat in range(n):
        totals[state.side(seat)] += pips[seat]
    fives = state.variant == "all_fives"
    bonus = [0] * n
    winners: list[int] = []
    if went_out is not None:
        won = [state.side(went_out)]
    else:
        low = min(totals)
        won = [side for side in range(sides) if totals[side] == low]
    if len(won) == 1:
        side = won[0]
        opponents = sum(totals) - totals[side]
        bonus[side] = 2 * (round5(opponents) if fives else opponents)
        winners = side_seats(state, side)
    elif fives and n == 3 and len(won) == 2:
        # Two lowest tie in a three-player block: the third hand is rounded, then split (half-points).
        third = next(side for side in range(sides) if side not in won)
        for side in won:
            bonus[side] = round5(totals[third])
        winners = sorted(won)
    if state.partnerships:  # a team's bonus is shown on both partners' seats
        bonus = [bonus[state.side(seat)] for seat in range(n)]
    return {
        "type": "round_end",
        "hand": state.round_no,
        "reason": "blocked" if went_out is None else "out",
        "went_out": went_out,
        "winners": winners,
        "pips": pips,
        "bonus": bonus,
    }


def game_over_event(state: State, side: int) -> Event:
    return {"type": "game_over", "reason": "target", "winners": side_seats(state, side)}


# ---------------------------------------------------------------- actions


def to_act(state: State) -> list[int]:
    if state.phase == "play":
        return [state.turn]
    if state.phase == "count":
        return [s for s in range(state.players) if s not in state.ready]
    return []


def legal_actions(state: State, seat: int) -> list[Action]:
    if state.phase == "play":
        if seat != state.turn:
            return []
        hand = state.hands[seat]
        plays = playable(hand, state.layout)
        if plays:
            return [{"type": "play", "tile": TILE_NAMES[t], "end": END_NAME[arm]} for t, arm in plays]
        if state.config["variant"] != "block" and state.boneyard:
            return [{"type": "draw"}]
        return [{"type": "pass"}]
    if state.phase == "count" and seat not in state.ready and 0 <= seat < state.players:
        return [{"type": "next_round"}]
    return []


def check_action(state: State, seat: Any, action: Any) -> tuple[str, int, int]:
    """Validate an action of any shape; the (type, tile, arm) it means, or IllegalAction."""
    players = state.config.get("players", 0)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise IllegalAction("bad_seat", _("There is no such seat at this table."))
    if not isinstance(action, dict):
        raise IllegalAction("bad_action", _("An action must say what you do, for example play a tile."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise IllegalAction("unknown_action", _("That is not something you can do in dominoes."))
    fields = ACTION_FIELDS[kind]
    for key in action:
        if key not in fields:
            raise IllegalAction(
                "unexpected_field", _("This action does not take {field}."), field=str(key)[:40]
            )
    for key in fields:
        if key not in action:
            raise IllegalAction("missing_field", _("This action needs {field}."), field=key)
    if state.phase == "over":
        raise IllegalAction("game_over", _("The game is over."))
    if state.phase == "count":
        if kind != "next_round":
            raise IllegalAction(
                "round_over", _("The round is over: the next one starts when everyone is ready.")
            )
        if seat in state.ready:
            raise IllegalAction("already_ready", _("You are already ready for the next round."))
        return kind, -1, -1
    if state.phase != "play":
        raise IllegalAction("not_started", _("The tiles have not been dealt yet."))
    if kind == "next_round":
        raise IllegalAction("round_in_progress", _("The round is still being played."))
    if seat != state.turn:
        raise IllegalAction("not_your_turn", _("It is not your turn."))
    hand = state.hands[seat]
    layout = state.layout
    if kind == "play":
        tile = parse(action["tile"])
        if tile is None:
            raise IllegalAction("bad_tile", _("Name a tile high half first, for example 5-3."))
        if tile not in hand:
            raise IllegalAction("tile_not_in_hand", _("You do not hold {tile}."), tile=TILE_NAMES[tile])
        end = action["end"]
        if not isinstance(end, str) or end not in END_ID:
            raise IllegalAction("bad_end", _("Choose an end: left, right, up or down."))
        arm = END_ID[end]
        if not layout.placed:
            if arm != CENTER:
                raise IllegalAction(
                    "lead_goes_center", _("The first tile of the round is laid in the center.")
                )
            return kind, tile, arm
        if arm == CENTER:
            raise IllegalAction("bad_end", _("Choose an end: left, right, up or down."))
        shown = layout.ends[arm]
        if shown < 0:
            raise IllegalAction("end_closed", _("There is no open end {end} yet."), end=end)
        if not MASK[tile] >> shown & 1:
            raise IllegalAction(
                "tile_does_not_match",
                _("{tile} does not match the {end} end, which shows {number}."),
                tile=TILE_NAMES[tile],
                end=end,
                number=shown,
            )
        return kind, tile, arm
    if can_play(hand, layout):
        raise IllegalAction("must_play", _("You can play a tile, so you must play."))
    if kind == "draw":
        if state.config["variant"] == "block":
            raise IllegalAction("no_drawing", _("There is no drawing in Block: pass instead."))
        if not state.boneyard:
            raise IllegalAction("boneyard_empty", _("The boneyard is empty: pass instead."))
        return kind, -1, -1
    if state.config["variant"] != "block" and state.boneyard:
        raise IllegalAction("must_draw", _("You cannot play, so you must draw from the boneyard."))
    return kind, -1, -1


def decide(state: State, seat: int, action: Action) -> list[Event]:
    kind, tile, arm = check_action(state, seat, action)
    if kind == "play":
        return play_events(state, seat, tile, arm)
    if kind == "draw":
        return [{"type": "draw", "seat": seat, "tile": TILE_NAMES[state.boneyard[0]]}]
    if kind == "pass":
        event: Event = {"type": "pass", "seat": seat}
        if state.passes + 1 < state.players:
            return [event]
        blocked = apply(state, event)
        return [event, *_after_round(blocked, round_end_event(blocked, None))]
    return next_round_events(state, seat)


def play_points(state: State, tile: int, arm: int, seat: int) -> int:
    """Half-points scored in play by laying ``tile`` on ``arm`` (All Fives; 0 otherwise)."""
    if state.config["variant"] != "all_fives":
        return 0
    total = state.layout.place(tile, arm, seat, True).total()
    return 2 * total if total > 0 and total % 5 == 0 else 0


def play_events(state: State, seat: int, tile: int, arm: int) -> list[Event]:
    scored = play_points(state, tile, arm, seat)
    event: Event = {
        "type": "play",
        "seat": seat,
        "tile": TILE_NAMES[tile],
        "end": END_NAME[arm],
        "scored": scored,
    }
    if scored:
        side_scored = state.side(seat)
        scores = tuple(s + scored if i == side_scored else s for i, s in enumerate(state.scores))
        side = sole_leader(state._replace(scores=scores))
        if side is not None:
            # Won at once: the rest of the round is neither played nor counted.
            return [event, game_over_event(state, side)]
    if len(state.hands[seat]) > 1:
        return [event]
    after = apply(state, event)
    return [event, *_after_round(after, round_end_event(after, seat))]


def _after_round(state: State, round_end: Event) -> list[Event]:
    counted = apply(state, round_end)
    side = sole_leader(counted)
    if side is not None:
        return [round_end, game_over_event(counted, side)]
    return [round_end]


def next_round_events(state: State, seat: int) -> list[Event]:
    event: Event = {"type": "next_round", "seat": seat}
    if len(state.ready) + 1 < state.players:
        return [event]
    nxt = state.round_no + 1
    summary = state.last_round
    if summary is not None and summary[1] >= 0:
        leader, lead_by = summary[1], "out"
    else:
        leader, lead_by = drawn_leader(state.seed, nxt, state.players), "draw"
    return [event, deal_event(state.config, shuffled_deck(state.seed, nxt), nxt, leader, lead_by)]
