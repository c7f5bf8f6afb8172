"""The Block cross-check of #35: our bot against ``ISMCTSBot`` on OpenSpiel's own ``python_block_dominoes``.

Each deal is dealt in OpenSpiel (seat 0's seven tiles, then seat 1's, then the fourteen left out) and
stacked into our engine in the same order (``config["deck"]``, seat 0 leading as OpenSpiel's player 0
always does), and both games are played side by side: our bot chooses from our engine's view, ISMCTS
from OpenSpiel's state, and every move is applied to both. Before each move the two engines must
agree on who is to move and on the set of legal (tile, open end's pips) plays; at the end, on the
round's winner. A disagreement is counted (``disagreements``): the check of our engine against an
independent implementation of the same game.

``python_block_dominoes`` has no resampler of its own (ISMCTS needs one): ``resample`` draws the
opponent's hand uniformly from the tiles that player cannot see and that agree with the opponent's
passes (OpenSpiel skips a player who cannot play: each skip shows the opponent held nothing on either
open end then). Its returns, which ISMCTS maximises, are OpenSpiel's: the pips won, zero-sum.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.games import block_dominoes as osb  # type: ignore[import-not-found]

from games.engines import dominoes as engine
from tests.bench.bench_vs_ismcts import Budget, Side, new_ismcts, paired_deals

ACTION_INDEX = {(a.player, a.tile, a.edge): i for i, a in enumerate(osb._ACTIONS)}
HAND = 7


def name_of(tile: tuple[float, float]) -> str:
    """OpenSpiel's (low, high) as our notation, high half first."""
    return f"{int(tile[1])}-{int(tile[0])}"


def tile_of(name: str) -> tuple[float, float]:
    high, low = (float(x) for x in name.split("-"))
    return (low, high)


def deal(number: int) -> list[int]:
    """The fourteen tiles dealt (indices into OpenSpiel's deck): player 0's seven, then player 1's."""
    return random.Random(f"block-check:{number}").sample(range(len(osb._DECK)), 2 * HAND)


def our_state(dealt: list[int]) -> Any:
    order = [name_of(osb._DECK[i]) for i in dealt]
    order += [name_of(t) for i, t in enumerate(osb._DECK) if i not in dealt]
    config = engine.validate_config(
        {"players": 2, "variant": "block", "target": 1, "first": 0, "deck": order}
    )
    return engine.replay(engine.start(config, 1))


def ends(state: Any, seat: int) -> dict[str, float]:
    """Our layout's open ends: end name → the pips it shows."""
    return {e["end"]: float(e["shows"]) for e in engine.view(state, seat)["layout"]["ends"]}


def as_pair(state: Any, seat: int, action: dict[str, Any]) -> tuple[tuple[float, float], float | None]:
    """Our play as OpenSpiel's (tile, edge): the open end's pips, None for the first tile."""
    edge = None if action["end"] == "center" else ends(state, seat)[action["end"]]
    return tile_of(action["tile"]), edge


def plays(state: Any, seat: int) -> list[dict[str, Any]]:
    return [a for a in engine.legal_actions(state, seat) if a["type"] == "play"]


def apply(state: Any, seat: int, action: dict[str, Any]) -> Any:
    for event in engine.decide(state, seat, action):
        state = engine.apply(state, event)
    return state


def skip_passes(state: Any) -> Any:
    """Our engine has a seat that cannot play pass; OpenSpiel skips it: pass for it."""
    while (seats := engine.to_act(state)) and not plays(state, seats[0]):
        legal = engine.legal_actions(state, seats[0])
        if not legal or legal[0]["type"] != "pass":
            break
        state = apply(state, seats[0], legal[0])
    return state


def resample(state: Any, player: int, rng: random.Random | None = None) -> Any:
    """A state ``player`` cannot tell from ``state``: the opponent's hand redrawn from the tiles
    ``player`` has not seen, avoiding every number the opponent was seen to lack (OpenSpiel's own
    state, cloned, with the other hand and the unused tiles replaced)."""
    rng = rng or random.Random()
    other = 1 - player
    history = state.actions_history
    voids: set[float] = set()
    edges: list[float] = []
    for i, action in enumerate(history):
        edges = list(action.tile) if not edges else _after(edges, action)
        mover = history[i + 1].player if i + 1 < len(history) else state.current_player()
        if action.player == player and mover == player:  # the opponent was skipped here
            voids.update(edges)
    seen = set(state.hands[player]) | {a.tile for a in history}
    unseen = [t for t in osb._DECK if t not in seen]
    allowed = [t for t in unseen if t[0] not in voids and t[1] not in voids]
    count = len(state.hands[other])
    hand = rng.sample(allowed, count) if len(allowed) >= count else rng.sample(unseen, count)
    sample = state.clone()
    sample.hands[other] = sorted(hand)
    sample.deck = [t for t in unseen if t not in hand]
    return sample


def _after(edges: list[float], action: Any) -> list[float]:
    out = list(edges)
    out.remove(action.edge)
    out.append(action.tile[0] if action.tile[0] != action.edge else action.tile[1])
    return sorted(out)


def play_one(number: int, ours: int, level: str, sims: int, ours_side: Side, theirs: Side) -> dict[str, Any]:
    """Deal ``number`` with our ``level`` in seat ``ours``: OpenSpiel's returns, whether the engines
    agreed all along, and our engine's outcome."""
    from games import bots

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(f"block-check:{number}:{ours}")
    search = new_ismcts(game, sims, seed=number * 2 + ours)
    search.set_resampler(lambda s, p: resample(s, p, rng))
    bot = bots.get("dominoes", level)
    dealt = deal(number)
    os_state = game.new_initial_state()
    for i in dealt:
        os_state.apply_action(i)
    mine = skip_passes(our_state(dealt))
    agree = True
    while not os_state.is_terminal():
        seat = os_state.current_player()
        agree &= engine.to_act(mine) == [seat]
        legal = plays(mine, seat)
        theirs_legal = {(osb._ACTIONS[i].tile, osb._ACTIONS[i].edge) for i in os_state.legal_actions()}
        agree &= {as_pair(mine, seat, a) for a in legal} == theirs_legal
        if seat == ours:
            cpu0 = time.process_time()
            action = bot.choose(engine.view(mine, seat), engine.legal_actions(mine, seat), rng)
            ours_side.add(time.process_time() - cpu0, len(legal))
            tile, edge = as_pair(mine, seat, action)
            os_state.apply_action(ACTION_INDEX[(seat, tile, edge)])
        else:
            ids = os_state.legal_actions()
            cpu0 = time.process_time()
            chosen = osb._ACTIONS[int(search.step(os_state))]
            theirs.add(time.process_time() - cpu0, len(ids), sims)
            action = next(a for a in legal if as_pair(mine, seat, a) == (chosen.tile, chosen.edge))
            os_state.apply_action(ACTION_INDEX[(seat, chosen.tile, chosen.edge)])
        mine = skip_passes(apply(mine, seat, action))
    returns = os_state.returns()
    last = engine.view(mine, 0)["last_round"]
    if returns[0] == returns[1]:
        agree &= last is not None and len(last["winners"]) != 1
    else:
        agree &= last is not None and last["winners"] == [0 if returns[0] > returns[1] else 1]
    return {"returns": returns, "agree": agree}


def match(
    level: str = "strong",
    games: int = 40,
    multiple: float = 1.0,
    sims: int | None = None,
    first_deal: int = 1000,
    log: Any = None,
) -> dict[str, Any]:
    """``level`` against ISMCTS on ``python_block_dominoes``, ``games // 2`` deals each played twice with
    the seats swapped, ISMCTS's simulations tuned as in bench_vs_ismcts (``Budget``); the figures."""
    started = time.perf_counter()

    def one(number: int, seat: int, sims: int, ours: Side, theirs: Side) -> tuple[float, float, bool]:
        result = play_one(number, seat, level, sims, ours, theirs)
        mine, other = result["returns"][seat], result["returns"][1 - seat]
        return (1.0 if mine > other else 0.5 if mine == other else 0.0), mine, result["agree"]

    figures, disagreements = paired_deals(
        one, Budget(multiple, sims), first_deal, games, f"block check {level}", log
    )
    return {
        "game": "python_block_dominoes",
        "level": level,
        **figures,
        "multiple": multiple,
        "disagreements": disagreements,
        "wall_s": time.perf_counter() - started,
    }


def line(r: dict[str, Any]) -> str:
    low, high = r["ci95"]
    return (
        f"block check (OpenSpiel python_block_dominoes, mirrored deals) {r['level']} vs ISMCTS({r['sims']} sims): "
        f"win {r['win_rate']:.3f} [{low:.3f}, {high:.3f}] of {r['games']}  margin {r['margin']:+.2f} pips  "
        f"CPU/move ours {r['ours_cpu_ms']:.1f} ms, ISMCTS {r['ismcts_cpu_ms']:.1f} ms ({r['cpu_ratio']:.2f}x)  "
        f"engines disagreed in {r['disagreements']} games  {r['wall_s']:.0f} s"
    )
