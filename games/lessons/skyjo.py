"""Skyjo, step by step: the opening, the three ways to play a turn, and a column wiped out.

Cells are numbered row by row (0-3 the top row), so a column is cells c, c + 4, c + 8. The learner's
first column holds 5, 5 and a hidden 9; the discard opens with a -2; the draw pile gives the
computer a 0, the learner a 12, the computer a 5.
"""

from __future__ import annotations

from collections import Counter

from games.engines.base import _
from games.engines.skyjo.state import FULL_DECK
from games.lessons import Learn, Lesson, Read, Reply

_STACKED = [
    *(5, 10, 3, 7, 5, 8, 1, 11, 9, 2, 6, 4),  # the learner's grid
    *(2, 4, 6, 3, 1, 0, 7, 8, 9, 10, 11, 12),  # the computer's grid
    -2,  # the first discard
    *(0, 12, 5),  # the top of the draw pile
]


def _deck() -> list[int]:
    rest = Counter(FULL_DECK)
    rest.subtract(Counter(_STACKED))
    return _STACKED + sorted(rest.elements())


LESSON = Lesson(
    slug="skyjo",
    engine="skyjo",
    config={"players": 2, "deck": _deck()},
    computer_match=_("Against the computer: rounds add up; when someone reaches 100, the lowest total wins."),
    friends_match=_("With friends: invite them to your table, or pass the device around."),
    script=(
        Read(
            _("Your grid"),
            _(
                "You have twelve cards face down, 3 rows of 4. Swap and turn them to keep your total "
                "as low as you can: the lowest total wins. Cards go from -2 to 12."
            ),
        ),
        Learn(
            _("The opening"),
            _(
                "Every round starts with each player turning two cards. Turn the top card of your first column."
            ),
            {"type": "reveal", "cell": 0},
            _("Turn the top card of your first column (on the left)."),
        ),
        Reply({"type": "reveal", "cell": 0}),
        Learn(
            _("The opening"),
            _("Now turn the middle card of the same column. The higher two cards start the round."),
            {"type": "reveal", "cell": 4},
            _("Turn the middle card of your first column."),
        ),
        Reply({"type": "reveal", "cell": 1}),
        Learn(
            _("Take the discard"),
            _(
                "Your 5 + 5 is higher, so you start. The -2 on the discard pile is the best card: take "
                "it and put it on the second card of your top row. The card that was there goes to "
                "the discard pile."
            ),
            {"type": "take_discard", "cell": 1},
            _("Take the -2 from the discard pile and put it on the second card of your top row."),
        ),
        Reply({"type": "draw"}),
        Reply({"type": "place", "cell": 11}),
        Learn(
            _("Draw a card"),
            _("Now draw the top card of the draw pile: only you see it until you play it."),
            {"type": "draw"},
            _("Draw a card from the draw pile."),
        ),
        Learn(
            _("Throw it away"),
            _(
                "A 12 is too high. Discard it, and then you must turn one of your hidden cards: turn "
                "the second card of your middle row."
            ),
            {"type": "discard", "cell": 5},
            _("Discard the 12 and turn the second card of your middle row."),
        ),
        Reply({"type": "draw"}),
        Reply({"type": "discard", "cell": 2}),
        Learn(
            _("Columns"),
            _(
                "Three equal cards face up in one column are wiped out: they no longer count. Take "
                "the 5 from the discard pile and put it at the bottom of your first column."
            ),
            {"type": "take_discard", "cell": 8},
            _("Take the 5 and put it at the bottom of your first column."),
        ),
        Read(
            _("The end of a round"),
            _(
                "When a player has no hidden card left, everyone else plays one more turn, all cards "
                "are turned and each grid is added up. The player who ended the round must have the "
                "lowest total, or theirs is doubled."
            ),
        ),
        Read(
            _("The end of the game"),
            _(
                "Round totals add up. When someone reaches 100 points, the game ends and the lowest "
                "total wins. Play on to the end of this round if you like."
            ),
        ),
    ),
)
