"""Two-player Block for the Expert: deals drawn as bit sets straight from the view, each solved whole.

In two-player Block the deal hides the opponent's hand among the tiles I cannot see; the rest lies
out of play for the whole round. Every hand the opponent can hold is a set of ``hand_sizes`` tiles
from the unseen ones that show no number it passed on (a Block hand only shrinks: a number it lacked
once, it lacks for good), and every such set is as likely before the plays are weighed; so a sample
is ``rng.sample`` of those tiles, without the engine's general ``determinize`` (which handles draws,
more seats and partners, at twenty times the cost). The plays are weighed as ``dominoes_infer`` says:
a sample is picked from a pool in proportion to how well it explains them.

An action is valued by solving the rest of the round exactly in the sampled deal (``dominoes_solve``),
from the first lead on: a round of seven tiles each solves in a few milliseconds.
"""

from __future__ import annotations

import random

from games.bots.dominoes_equity import Equity
from games.bots.dominoes_infer import opponent_plays
from games.bots.dominoes_solve import NUMBER, Solver
from games.engines import dominoes as engine
from games.engines.base import Action, View
from games.engines.dominoes.tiles import HI, LO, MASK, TILE_ID

# One sample: both hands as bit sets (by seat) and the solver of that deal (its table kept across actions).
Sample = tuple[tuple[int, ...], Solver]


def applies(view: View) -> bool:
    """Whether this position handles the view: Block between two players, a round in play."""
    return bool(view["variant"] == "block" and view["config"]["players"] == 2 and view["phase"] == "play")


def bits(names: list[str]) -> int:
    out = 0
    for name in names:
        out |= 1 << TILE_ID[name]
    return out


class BlockPosition:
    """One decision of a two-player Block seat (the ``search.Position`` of the Expert).

    ``equity`` None: values in half-points (the scores' margin once the round is counted, ``win``
    added when it ends the game), as the review counts; else the scaled chance of winning the game.
    ``careless``: the chance the solver gives the opponent of playing at random (``Solver.mixed``).
    """

    def __init__(self, view: View, pool: int, win: int, equity: Equity | None, careless: float = 0.0) -> None:
        self.seat = seat = view["seat"]
        self.other = 1 - seat
        self.pool = max(1, pool)
        self.win = win
        self.equity = equity
        self.careless = careless
        self.mine = bits(view["hands"][seat])
        placed = bits([entry["tile"] for entry in view["layout"]["tiles"]])
        void = 0
        for move in view["moves"]:
            if move["seat"] == self.other and move["type"] == "pass":
                for number in move["ends"]:
                    void |= 1 << number
        self.allowed = [t for t in range(28) if not (self.mine | placed) >> t & 1 and not MASK[t] & void]
        self.size = view["hand_sizes"][self.other]
        ends = {e["end"]: e["shows"] for e in view["layout"]["ends"]}
        self.ends: tuple[int, int] | None = (ends["left"], ends["right"]) if ends else None
        self.passes = view["passes"]
        # The opponent's plays, newest first, as (tile, the numbers the open ends showed).
        self.plays = [
            (tile, tuple(e for e in shown if e >= 0)) for _seat, tile, shown in reversed(opponent_plays(view))
        ]
        # What the solver reads of a state (players, scores, target): any state of this view will do.
        self.table = engine.determinize(view, random.Random(0))
        self.margin = self.table.scores[seat] - self.table.scores[self.other]

    def weight(self, hand: int) -> float:
        """How well a hand explains the opponent's plays (``dominoes_infer.play_weight``, on bit sets)."""
        product = 1.0
        held = hand
        for tile, shown in self.plays:
            held |= 1 << tile
            count = 0
            for number in shown:  # a tile counts once for each end it matches, as the legal plays do
                count += (held & NUMBER[number]).bit_count()
            product /= count
        return product

    def sample(self, rng: random.Random) -> Sample:
        if self.size > len(self.allowed):  # no real game gets here; keep the hand count right anyway
            hands_pool = [sum(1 << t for t in rng.sample(range(28), self.size))]
        else:
            hands_pool = [sum(1 << t for t in rng.sample(self.allowed, self.size)) for _ in range(self.pool)]
        if len(hands_pool) > 1 and self.plays:
            theirs = rng.choices(hands_pool, weights=[self.weight(h) for h in hands_pool])[0]
        else:
            theirs = hands_pool[0]
        hands = [0, 0]
        hands[self.seat], hands[self.other] = self.mine, theirs
        solver = Solver(self.table, self.win, self.seat, self.careless, self.equity)
        return tuple(hands), solver

    def value(self, sample: Sample, action: Action, stream: float) -> float:
        """My value of ``action`` in the sampled deal, both sides playing on perfectly (or the opponent
        carelessly, with ``careless``)."""
        hands, solver = sample
        if action["type"] != "play":  # a forced pass: the solver passes for me
            assert self.ends is not None
            value = solver.value(hands, self.ends[0], self.ends[1], self.seat, self.passes)
            return value if self.equity is not None else self.margin + value
        tile = TILE_ID[action["tile"]]
        after = list(hands)
        after[self.seat] ^= 1 << tile
        rest = tuple(after)
        side = self.seat % 2
        if self.ends is None:
            left, right = HI[tile], LO[tile]
        else:
            left, right = self.ends
            if action["end"] == "left":
                left = LO[tile] if HI[tile] == left else HI[tile]
            else:
                right = LO[tile] if HI[tile] == right else HI[tile]
        if not rest[self.seat]:
            mine = float(solver.terminal(rest, side, side))
        else:
            mine = -solver.value(rest, left, right, self.other, 0)
        return mine if self.equity is not None else self.margin + mine
