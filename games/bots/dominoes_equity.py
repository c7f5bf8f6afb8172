"""The chance of winning a two-sided Block game from its scores: what the strong bot plays a round for.

A round's margin is not what a game is won by. Ten points matter more to a side that needs ten than
to a side that needs ninety, and going out is worth the lead of the next round. Like the
match equity tables of backgammon, the chance is worked out once for two sides of equal strength,
from how rounds between equal players end (``dominoes_rounds.ROUNDS``): whether the side that led
won it, whether by going out (the winner leads next) or by a block (the next lead is drawn), and the
bonus. A round that scores nothing is left out, as if it had been dealt again.

Needs are counted in steps of five points, rounded up: a side 3 points short is treated as 5 short.
Whether a round ends the game is never approximated: the callers check the target exactly.

Regenerate the round counts with ``python -m games.bots.dominoes_equity [ROUNDS]``.
"""

from __future__ import annotations

import random
import sys
from functools import lru_cache
from pathlib import Path

from games.bots.dominoes_rounds import ROUNDS
from games.engines.dominoes.state import State

STEP = 10  # half-points per step of the table (five points)
SCALE = 1_000_000  # a won game, in the units of ``Equity.value``
LEAD, FOLLOW, DRAWN = 1, -1, 0  # who leads the next round, from the side's point of view

# One kind of round end: (the leader's side won it, by going out, bonus in steps), and its chance.
Outcome = tuple[bool, bool, int]


def kind(players: int) -> str:
    """The key of ``ROUNDS`` for a game: two players, or four in two partnerships."""
    return "2" if players == 2 else "4p"


@lru_cache(maxsize=8)
def table(key: str, steps: int) -> tuple[tuple[float, ...], ...]:
    """``t[mine][theirs]``: my chance when I lead the next round, needing ``mine`` and ``theirs`` steps.

    Index 0 is a need already met (the game is over); it is never read for a game in play.
    """
    counts = ROUNDS[key]
    total = sum(counts.values())
    outcomes = [(won, out, bonus, n / total) for (won, out, bonus), n in counts.items()]
    lead = [[0.0] * (steps + 1) for _ in range(steps + 1)]

    def led(m: int, t: int) -> float:  # my chance when I lead
        return 1.0 if m <= 0 else 0.0 if t <= 0 else lead[m][t]

    def follow(m: int, t: int) -> float:  # my chance when they lead: one minus theirs when they lead
        return 1.0 if m <= 0 else 0.0 if t <= 0 else 1.0 - lead[t][m]

    # Every scoring round lowers one need, so the table fills by the sum of the needs.
    for needs in range(2, 2 * steps + 1):
        for m in range(max(1, needs - steps), min(steps, needs - 1) + 1):
            t = needs - m
            chance = 0.0
            for won, out, bonus, p in outcomes:
                if won:  # I led and won
                    m2, t2 = m - bonus, t
                    after = led(m2, t2) if out else (led(m2, t2) + follow(m2, t2)) / 2
                else:
                    m2, t2 = m, t - bonus
                    after = follow(m2, t2) if out else (led(m2, t2) + follow(m2, t2)) / 2
                chance += p * after
            lead[m][t] = chance
    return tuple(tuple(row) for row in lead)


class Equity:
    """The game chances of one two-sided Block game (its target and number of players)."""

    def __init__(self, players: int, target: int) -> None:
        self.target2 = 2 * target
        self.steps = -(-self.target2 // STEP)
        self.lead = table(kind(players), self.steps)

    def chance(self, mine: int, theirs: int, lead: int) -> float:
        """My side's chance of winning the game with these scores (half-points), both below target.

        ``lead``: ``LEAD`` if my side leads the next round, ``FOLLOW`` if the other does, ``DRAWN``.
        """
        m = max(1, -(-(self.target2 - mine) // STEP))
        t = max(1, -(-(self.target2 - theirs) // STEP))
        if lead == LEAD:
            return self.lead[m][t]
        if lead == FOLLOW:
            return 1.0 - self.lead[t][m]
        return (self.lead[m][t] + 1.0 - self.lead[t][m]) / 2

    def of_state(self, state: State, seat: int) -> float:
        """The seat's side's chance once a round is counted or the game is over."""
        mine = state.side(seat)
        if state.phase == "over":
            return 1.0 if seat in state.winners else 0.0
        went_out = state.last_round[1] if state.last_round else -1
        lead = DRAWN if went_out < 0 else LEAD if state.side(went_out) == mine else FOLLOW
        return self.chance(state.scores[mine], state.scores[1 - mine], lead)

    def value(self, state: State, seat: int) -> int:
        """What the strong bot's search makes of a counted round or a finished game, for the seat's side:
        ``SCALE * (2 * chance - 1)``, plus the round's bonus won or lost (half-points), which only
        decides between near-equal chances (far ahead or far behind, the chances hardly differ)."""
        bonus = state.last_round[4] if state.last_round else (0,) * state.players
        mine = state.side(seat)
        return scaled(self.of_state(state, seat), bonus[mine] - bonus[1 - mine])


def scaled(chance: float, bonus: int) -> int:
    """A chance of winning the game in the search's units, the round's bonus breaking near-ties."""
    return round(SCALE * (2 * chance - 1)) + bonus


def measure(players: int, rounds: int, seed: int = 0) -> dict[Outcome, int]:
    """Round ends of the playout policy against itself: equal players, both fairly strong."""
    from games.bots.dominoes_sim import playout
    from games.engines import dominoes as engine

    config = engine.validate_config(
        {"players": players, "variant": "block", "partnerships": players == 4, "target": 10_000}
    )
    rng = random.Random(seed)
    counts: dict[Outcome, int] = {}
    for i in range(rounds):
        state = engine.replay(engine.start(config, seed * 1_000_003 + i))
        end = playout(state, rng)
        assert end.last_round is not None
        reason, went_out, winners, _, bonus, _ = end.last_round
        steps = (max(bonus) // 2 + 2) // 5  # points to the nearest five
        if not winners or not steps:
            continue  # a tied block or a bonus of nothing: the scores do not move
        won = state.side(winners[0]) == state.side(state.leader)
        key = (won, reason == "out", steps)
        counts[key] = counts.get(key, 0) + 1
    return counts


def main(rounds: int) -> None:
    out = Path(__file__).with_name("dominoes_rounds.py")
    lines = [
        '"""How rounds of Block between equal players end (generated by ``python -m',
        f"games.bots.dominoes_equity {rounds}``; do not edit).",
        "",
        "Per game kind: (the leader's side won, by going out, bonus in steps of five points): rounds.",
        '"""',
        "",
        "ROUNDS: dict[str, dict[tuple[bool, bool, int], int]] = {",
    ]
    for players in (2, 4):
        counts = measure(players, rounds)
        lines.append(f'    "{kind(players)}": {{')
        lines.extend(f"        {key!r}: {n}," for key, n in sorted(counts.items()))
        lines.append("    },")
    lines.append("}")
    out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
