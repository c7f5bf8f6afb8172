"""The all-seeing Pitch player of the ceiling experiment plays the minimax line (#35)."""

from __future__ import annotations

from typing import Any

from games.engines import pitch
from tests.bench.pitch_oracle import WIN, OracleBot


def _after(state: Any, seat: int, action: dict[str, Any]) -> Any:
    for event in pitch.decide(state, seat, action):
        state = pitch.apply(state, event)
    return state


def _minimax(state: Any, me: int) -> float:
    """Brute force over the engine's own moves: ``WIN`` × my share of the game, plus the margin."""
    if not pitch.to_act(state):
        share = 1.0 if state.winners == (me,) else 0.5 if me in state.winners else 0.0
        return WIN * share + state.scores[me] - state.scores[1 - me]
    seat = pitch.to_act(state)[0]
    values = [_minimax(_after(state, seat, a), me) for a in pitch.legal_actions(state, seat)]
    return max(values) if seat == me else min(values)


def test_the_oracle_plays_a_best_move_of_the_last_tricks_and_finishes_any_hand():
    config = pitch.validate_config({"players": 2, "max_hands": 1})
    checked = 0
    for seed in range(6):
        state = pitch.replay(pitch.start(config, seed))
        bot = OracleBot()
        while pitch.to_act(state):
            seat = pitch.to_act(state)[0]
            legal = pitch.legal_actions(state, seat)
            chosen = bot.choose_state(state, seat, legal)
            if state.phase == "play" and len(legal) > 1 and sum(map(len, state.hands)) <= 6:
                values = [_minimax(_after(state, seat, a), seat) for a in legal]
                assert _minimax(_after(state, seat, chosen), seat) == max(values), seed
                checked += 1
            state = _after(state, seat, chosen)
        assert state.phase == "over"
    assert checked >= 6
