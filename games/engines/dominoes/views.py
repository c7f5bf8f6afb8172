"""What each audience sees (``view``), everything (``reveal``), and states sampled from a view."""

from __future__ import annotations

import random
from typing import Any

from games.engines import matching
from games.engines.base import View

from .rules import to_act
from .state import (
    ARM_NAMES,
    ARMS,
    CENTER,
    EMPTY_LAYOUT,
    END_ID,
    END_NAME,
    KIND_ID,
    KIND_NAMES,
    LEFT,
    PLAY,
    RIGHT,
    Layout,
    Move,
    RoundSummary,
    State,
)
from .tiles import DOUBLE, HI, LO, MASK, PIPS, TILE_ID, TILE_NAMES, names, numbers

PUBLIC_OPTIONS = ("players", "variant", "partnerships", "first", "target")


def hands_shown(state: State) -> bool:
    """Hands are private until the final count of a round (and once the game is over)."""
    return state.phase in ("count", "over")


def teams(state: State) -> list[list[int]] | None:
    return [[0, 2], [1, 3]] if state.config.get("partnerships") else None


# ---------------------------------------------------------------- view


def layout_view(layout: Layout, fives: bool) -> dict[str, Any]:
    tiles: list[dict[str, Any]] = []
    index = [0, 0, 0, 0]
    spinner = layout.spinner
    for order, (tile, arm, outer, seat) in enumerate(layout.placed):
        entry: dict[str, Any] = {"tile": TILE_NAMES[tile], "arm": END_NAME[arm], "by": seat, "order": order}
        if arm == CENTER:
            entry |= {"index": 0, "left": HI[tile], "right": LO[tile]}
            at = 0
        else:
            at = index[arm]
            index[arm] += 1
            entry |= {"index": at, "inner": HI[tile] + LO[tile] - outer, "outer": outer}
        entry["double"] = DOUBLE[tile]  # doubles are laid crosswise
        entry["spinner"] = spinner is not None and spinner[0] == arm and spinner[1] == at
        tiles.append(entry)
    counts = layout.counts()
    ends = []
    for arm in ARMS:
        shown = layout.ends[arm]
        if shown < 0:
            continue
        tip = layout.tips[arm]
        if tip < 0 and arm in (LEFT, RIGHT):
            tip = layout.lead
        ends.append(
            {
                "end": ARM_NAMES[arm],
                "shows": shown,
                "counts": counts[arm] if fives else None,
                "tile": TILE_NAMES[tip] if tip >= 0 else None,  # None: an empty spinner branch
            }
        )
    spinner_view = None
    if spinner is not None:
        s_arm, s_index, number = spinner
        sides = layout.spinner_sides_played()
        spinner_view = {
            "tile": f"{number}-{number}",
            "arm": END_NAME[s_arm],
            "index": s_index,
            "number": number,
            "sides_played": sides,
            "branches_open": layout.ends[2] >= 0,
            "counts": 2 * number if sides < 2 else 0,
        }
    return {
        "tiles": tiles,
        "spinner": spinner_view,
        "ends": ends,
        "total": sum(counts) if fives else None,
    }


def move_view(move: Move) -> dict[str, Any]:
    seat, kind, tile, arm, scored, mask = move
    if kind == PLAY:
        return {
            "seat": seat,
            "type": "play",
            "tile": TILE_NAMES[tile],
            "end": END_NAME[arm],
            "scored": scored,
        }
    return {"seat": seat, "type": KIND_NAMES[kind], "ends": numbers(mask)}


def summary_view(summary: RoundSummary | None) -> dict[str, Any] | None:
    if summary is None:
        return None
    reason, went_out, winners, pips, bonus, round_no = summary
    return {
        "hand": round_no,
        "reason": reason,
        "went_out": None if went_out < 0 else went_out,
        "winners": list(winners),
        "pips": list(pips),
        "bonus": list(bonus),
    }


def view(state: State, seat: int | None) -> View:
    config = state.config
    n = config.get("players", 0)
    shown = hands_shown(state)
    hands: list[list[str] | None] = [
        names(hand) if shown or s == seat else None for s, hand in enumerate(state.hands)
    ]
    return {
        "game": "dominoes",
        "version": 1,
        "seat": seat,
        "config": {k: config[k] for k in PUBLIC_OPTIONS if k in config},
        "players": n,
        "variant": config.get("variant"),
        "partnerships": config.get("partnerships", False),
        "teams": teams(state),
        "target": config.get("target"),
        "hand": state.round_no,
        "phase": state.phase,
        "to_act": to_act(state),
        "turn": state.turn if state.phase == "play" else None,
        "finished": state.phase == "over",
        "scores": [state.seat_score(s) for s in range(n)] if state.scores else [0] * n,
        "score_scale": 2,
        "leader": state.leader if state.leader >= 0 else None,
        "lead_by": state.lead_by or None,
        "hands": hands,
        "hand_sizes": [len(hand) for hand in state.hands],
        "boneyard": len(state.boneyard),
        "layout": layout_view(state.layout, config.get("variant") == "all_fives"),
        "moves": [move_view(m) for m in state.moves],
        "passes": state.passes,
        "ready": list(state.ready),
        "last_round": summary_view(state.last_round),
        "past_rounds": [
            {**(summary_view(summary) or {}), "scores": [sides[state.side(s)] for s in range(n)]}
            for summary, sides in state.past_rounds
        ],
        "winners": list(state.winners),
        "end_reason": state.end_reason or None,
    }


def reveal(state: State) -> View:
    """Everything but the seed: every hand, the boneyard in order, and the full config."""
    full = view(state, None)
    full["hands"] = [names(hand) for hand in state.hands]
    full["boneyard_tiles"] = names(state.boneyard)
    full["config"] = {k: (list(v) if isinstance(v, list) else v) for k, v in state.config.items()}
    full["pips"] = [sum(PIPS[t] for t in hand) for hand in state.hands]
    return full


def hidden_from(state: State, seat: int | None) -> list[str]:
    hidden = list(state.boneyard)
    if not hands_shown(state):
        for s, hand in enumerate(state.hands):
            if s != seat:
                hidden.extend(hand)
    return names(hidden)


def components(state: State) -> list[str]:
    tiles: list[int] = [t for hand in state.hands for t in hand]
    tiles.extend(state.boneyard)
    tiles.extend(p[0] for p in state.layout.placed)
    return names(tiles)


# ---------------------------------------------------------------- determinize


def slot_masks(moves: list[dict[str, Any]], seat: int, hidden: int, in_progress: bool) -> list[int]:
    """For each unseen tile of ``seat``, the numbers it certainly cannot show.

    A player who drew or passed held nothing matching the open ends then; the tiles they drew
    and could not play do not match those ends either. Tiles drawn later are only bound by later
    turns, so each tile is given the loosest constraint its acquisition time allows (a sound
    relaxation: the true hand always fits the slots).
    """
    turns: list[list[dict[str, Any]]] = []
    previous = None
    for move in moves:
        if move["seat"] != seat:
            previous = None
            continue
        if previous is None:
            turns.append([])
        turns[-1].append(move)
        previous = move
    events: list[int] = []  # the open-ends mask of each turn that had a draw or a pass
    batches: list[tuple[int, int]] = []  # (index of the first event binding them, count)
    last = len(turns) - 1
    still_drawing = in_progress and bool(moves) and moves[-1]["seat"] == seat and moves[-1]["type"] == "draw"
    for i, turn in enumerate(turns):
        kinds = [m["type"] for m in turn]
        if "draw" not in kinds and "pass" not in kinds:
            continue
        ends_mask = 0
        for m in turn:
            if m["type"] != "play":
                for number in m["ends"]:
                    ends_mask |= 1 << number
        events.append(ends_mask)
        draws = kinds.count("draw")
        if i == last and still_drawing:
            batches.append((len(events) - 1, draws - 1))
            batches.append((len(events), 1))  # the tile just drawn may be the playable one
        elif kinds[-1] == "play":
            batches.append((len(events) - 1, draws - 1))  # the last draw was the tile played
        else:
            batches.append((len(events) - 1, draws))
    binding = [0] * (len(events) + 1)  # binding[j] = union of the ends of events j, j+1, ...
    for j in range(len(events) - 1, -1, -1):
        binding[j] = binding[j + 1] | events[j]
    slots: list[int] = []
    for first, count in reversed(batches):
        take = min(count, hidden - len(slots))
        slots.extend([binding[first]] * take)
    slots.extend([binding[0]] * (hidden - len(slots)))  # dealt tiles
    return slots


def _assign(unknown: list[int], slots: list[int], rng: random.Random) -> list[int] | None:
    """A tile for each slot (a mask of forbidden numbers), all different; None if none fits."""
    order = sorted(range(len(slots)), key=lambda i: (-bin(slots[i]).count("1"), rng.random()))
    for _attempt in range(30):
        pool = unknown[:]
        rng.shuffle(pool)
        chosen = [-1] * len(slots)
        for i in order:
            mask = slots[i]
            for k, tile in enumerate(pool):
                if not MASK[tile] & mask:
                    chosen[i] = tile
                    pool[k] = pool[-1]
                    pool.pop()
                    break
            else:
                break
        else:
            return chosen
    return _match(unknown, slots, rng)


def _match(unknown: list[int], slots: list[int], rng: random.Random) -> list[int] | None:
    """Bipartite matching (augmenting paths) for the rare deals the greedy draw cannot fill."""
    tiles = unknown[:]
    rng.shuffle(tiles)
    owner = matching.match(tiles, len(slots), lambda tile, slot: not MASK[tile] & slots[slot])
    if owner is None:
        return None
    chosen = [-1] * len(slots)
    for tile, slot in owner.items():
        chosen[slot] = tile
    return chosen


def determinize(v: View, rng: random.Random) -> State:
    """A full state that the seat of ``v`` cannot tell from the real one, built from the view alone."""
    config = dict(v["config"])
    config["deck"] = None
    n = config["players"]
    fives = config["variant"] == "all_fives"
    layout = EMPTY_LAYOUT
    for entry in v["layout"]["tiles"]:
        layout = layout.place(TILE_ID[entry["tile"]], END_ID[entry["arm"]], entry["by"], fives)
    moves: list[Move] = []
    for m in v["moves"]:
        kind = KIND_ID[m["type"]]
        if kind == PLAY:
            moves.append((m["seat"], PLAY, TILE_ID[m["tile"]], END_ID[m["end"]], m["scored"], 0))
        else:
            mask = 0
            for number in m["ends"]:
                mask |= 1 << number
            moves.append((m["seat"], kind, -1, -1, 0, mask))
    known: list[list[int] | None] = [
        None if hand is None else sorted(TILE_ID[t] for t in hand) for hand in v["hands"]
    ]
    seen = {t for hand in known if hand for t in hand} | {p[0] for p in layout.placed}
    unknown = [t for t in range(28) if t not in seen]
    slots: list[int] = []
    owners: list[int] = []
    for s in range(n):
        if known[s] is None:
            in_progress = v["phase"] == "play" and v["turn"] == s
            masks = slot_masks(v["moves"], s, v["hand_sizes"][s], in_progress)
            slots.extend(masks)
            owners.extend([s] * len(masks))
    boneyard_size = v["boneyard"]
    slots.extend([0] * boneyard_size)
    owners.extend([-1] * boneyard_size)
    chosen = _assign(unknown, slots, rng)
    if chosen is None:  # only for a view no real game can produce: ignore the voids
        chosen = unknown[:]
        rng.shuffle(chosen)
    hands = [list(h) if h is not None else [] for h in known]
    boneyard: list[int] = []
    for tile, owner in zip(chosen, owners, strict=True):
        if owner < 0:
            boneyard.append(tile)
        else:
            hands[owner].append(tile)
    rng.shuffle(boneyard)
    scores_by_seat = v["scores"]
    scores = tuple(scores_by_seat[:2]) if config["partnerships"] else tuple(scores_by_seat)
    last = v["last_round"]
    summary = None if last is None else _round_summary(last)
    return State(
        config=config,
        seed=rng.randrange(2**62),
        phase=v["phase"],
        round_no=v["hand"],
        hands=tuple(tuple(sorted(h)) for h in hands),
        boneyard=tuple(boneyard),
        layout=layout,
        turn=v["turn"] if v["turn"] is not None else -1,
        passes=v["passes"],
        scores=scores,
        leader=v["leader"] if v["leader"] is not None else -1,
        lead_by=v["lead_by"] or "",
        moves=tuple(moves),
        ready=tuple(v["ready"]),
        last_round=summary,
        past_rounds=tuple(_past_round(r, config) for r in v.get("past_rounds", ())),
        winners=tuple(v["winners"]),
        end_reason=v["end_reason"] or "",
    )


def _past_round(seen: dict[str, Any], config: dict[str, Any]) -> tuple[RoundSummary, tuple[int, ...]]:
    """A round of the view's ``past_rounds`` as the state keeps it (the sides' scores after it)."""
    by_seat = seen["scores"]
    return _round_summary(seen), tuple(by_seat[:2]) if config["partnerships"] else tuple(by_seat)


def _round_summary(seen: dict[str, Any]) -> RoundSummary:
    """A round's end as a view shows it (``last_round``, an entry of ``past_rounds``), as the state keeps it."""
    return (
        seen["reason"],
        -1 if seen["went_out"] is None else seen["went_out"],
        tuple(seen["winners"]),
        tuple(seen["pips"]),
        tuple(seen["bonus"]),
        seen["hand"],
    )
