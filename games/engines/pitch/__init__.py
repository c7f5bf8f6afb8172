"""Auction Pitch (Setback) for 2 to 7 players, or two partnerships at four.

Rule of record: ``rules/pitch.md``; what the engine decided where the page is
silent is written in ``docs/games/pitch.md``.

The state is an immutable named tuple folded from events. Every event records an
outcome (the dealt hands, the trick winner, the points of a hand), so ``apply``
never judges a rule and never draws a random number. Undealt cards are never
written into an event: they are the cards of the deck that were not dealt.

Modules: ``cards`` (notation, trick and hand-point rules), ``config`` (options),
``state`` (the state and its fold), ``rules`` (legal actions and the events of an
action), ``views`` (views, reveal, outcome, determinize).
"""

from __future__ import annotations

from games.engines.pitch.cards import (
    CARD_POINTS,
    DECK,
    HAND_SIZE,
    NAME,
    RANK_OF,
    SUIT_OF,
    SUITS,
    hand_awards,
    playable,
    sort_cards,
    trick_winner,
    voids,
)
from games.engines.pitch.config import (
    DEFAULT_MAX_HANDS,
    TARGETS,
    default_config,
    sample_configs,
    side_of,
    sides,
    validate_config,
)
from games.engines.pitch.rules import deal_of, deals_in, decide, legal_actions, start
from games.engines.pitch.sheet import score_sheet
from games.engines.pitch.state import State, apply, high_bid, replay, to_act
from games.engines.pitch.views import (
    components,
    deal_unseen,
    determinize,
    hidden_from,
    outcome,
    reveal,
    view,
)

VERSION = 1
# No partial score (docs/tournaments.md, "The round clock"): the game is won by a pitcher who ends a
# hand at or above the target, "so a winner may have fewer points than a loser" (rules/pitch.md):
# the points of a game stopped before say nothing of who won it.
PARTIAL_SCORE = False
# Events whose data everyone may see (move logs show it); never "setup" (the seed, a stacked deck)
# nor "deal" (every hand).
PUBLIC_EVENTS = frozenset({"pass", "bid", "pitcher", "pitch", "trump", "play", "trick", "score", "end"})

__all__ = [
    "score_sheet",
    "CARD_POINTS",
    "DECK",
    "DEFAULT_MAX_HANDS",
    "HAND_SIZE",
    "NAME",
    "PARTIAL_SCORE",
    "RANK_OF",
    "SUITS",
    "SUIT_OF",
    "TARGETS",
    "VERSION",
    "State",
    "apply",
    "components",
    "deal_of",
    "deal_unseen",
    "deals_in",
    "decide",
    "default_config",
    "determinize",
    "hand_awards",
    "hidden_from",
    "high_bid",
    "legal_actions",
    "outcome",
    "playable",
    "replay",
    "reveal",
    "sample_configs",
    "side_of",
    "sides",
    "sort_cards",
    "start",
    "to_act",
    "trick_winner",
    "validate_config",
    "view",
    "voids",
]
