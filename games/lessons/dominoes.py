"""Dominoes, step by step (shared by Block, Draw and All Fives): played as Draw, two players.

The learner leads. Their hand: 6-4 6-6 3-3 5-0 5-5 3-0 4-4; the computer's: 4-2 6-1 6-5 6-3 4-3 2-0
1-1; the boneyard gives 5-4, then 2-1.
"""

from __future__ import annotations

from games.engines.base import _
from games.engines.dominoes.tiles import TILE_NAMES
from games.lessons import Learn, Lesson, Read, Reply

_LEARNER = ["6-4", "6-6", "3-3", "5-0", "5-5", "3-0", "4-4"]
_COMPUTER = ["4-2", "6-1", "6-5", "6-3", "4-3", "2-0", "1-1"]
_BONEYARD = ["5-4", "2-1"]
_STACKED = _LEARNER + _COMPUTER + _BONEYARD

LESSON = Lesson(
    slug="dominoes",
    engine="dominoes",
    config={
        "players": 2,
        "variant": "draw",
        "first": 0,
        "deck": _STACKED + [t for t in TILE_NAMES if t not in _STACKED],
    },
    computer_match=_("Against the computer: Block, Draw or All Fives, with 1 to 3 computer players."),
    friends_match=_("With friends: 2, 3 or 4 players, or two partnerships of two."),
    script=(
        Read(
            _("The tiles"),
            _(
                "28 tiles, from 0-0 to 6-6. With two players each gets 7 tiles; the rest is the "
                "boneyard, face down. You see only your own tiles."
            ),
        ),
        Learn(
            _("The lead"),
            _("You lead: any tile may start the line, no double needed. Lead your 6-4."),
            {"type": "play", "tile": "6-4", "end": "center"},
            _("Lead your 6-4."),
        ),
        Reply({"type": "play", "tile": "4-2", "end": "right"}),
        Learn(
            _("Matching"),
            _(
                "A tile goes against an open end showing the same number. The ends show 6 and 2: put "
                "your 6-6 on the 6. A double lies crosswise."
            ),
            {"type": "play", "tile": "6-6", "end": "left"},
            _("Put your 6-6 on the 6."),
        ),
        Reply({"type": "play", "tile": "6-1", "end": "left"}),
        Learn(
            _("Drawing"),
            _(
                "The ends show 1 and 2 and none of your tiles matches. In Draw you take tiles from "
                "the boneyard, one at a time, until one can be played. Draw a tile."
            ),
            {"type": "draw"},
            _("None of your tiles matches: draw a tile."),
        ),
        Learn(
            _("Drawing"),
            _("The 5-4 does not match either: draw again."),
            {"type": "draw"},
            _("The 5-4 does not match: draw again."),
        ),
        Learn(
            _("Play what you drew"),
            _("The 2-1 matches, and a tile you draw that matches must be played: put it on the 1."),
            {"type": "play", "tile": "2-1", "end": "left"},
            _("Put the 2-1 on the 1."),
        ),
        Read(
            _("Block"),
            _(
                "In Block there is no drawing: when you cannot play, you pass. When every player "
                "passes, the round is blocked and the lowest total of pips wins it."
            ),
        ),
        Read(
            _("Winning a round"),
            _(
                "The player who plays their last tile wins the round and scores the pips left in the "
                "other hands. In All Fives you also score whenever the open ends add up to a multiple "
                "of 5. Play on to the end of this round if you like."
            ),
        ),
    ),
)
