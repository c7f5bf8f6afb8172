"""Kazino, step by step: seed 002's "Aprann etap pa etap" played on a stacked deal.

The computer deals (the learner plays first). Deal 1: table 10 4 Q 2; the learner holds A 5 K 7, the
computer 8 6 2 5. Deal 2: the learner holds 7 7 3 J, the computer 9 4 Q 10.
"""

from __future__ import annotations

from games.engines.base import _
from games.engines.kazino.cards import DECK
from games.lessons import Learn, Lesson, Read, Reply

_STACKED = [
    *("10H", "4C", "QD", "2S"),  # the table
    *("AS", "5D", "KC", "7S"),  # the learner, deal 1
    *("8H", "6S", "2H", "5C"),  # the computer, deal 1
    *("7D", "7H", "3D", "JS"),  # the learner, deal 2
    *("9D", "4H", "QS", "10C"),  # the computer, deal 2
]

LESSON = Lesson(
    slug="kazino",
    engine="kazino",
    config={"players": 2, "dealer": 1, "deck": _STACKED + [c for c in DECK if c not in _STACKED]},
    computer_match=_("Against the computer: points add up game after game; the first to 160 wins the match."),
    friends_match=_("With friends online: each game is a match, and its points count in the ranking."),
    friends_options={"match": "single"},
    script=(
        Read(
            _("The deal"),
            _(
                "2 players, 52 cards. Four cards lie face up on the table and each player gets four. "
                "When both have played their four, each gets four more (nothing is added to the table) "
                "until the deck is used up: 6 deals. The computer dealt, so you play first."
            ),
        ),
        Read(
            _("Card values"),
            _("2 to 10 count their number, J = 11, Q = 12, K = 13. The Ace counts 1 or 14: you say which."),
        ),
        Learn(
            _("Capturing"),
            _(
                "Your card takes every table card of its value and every group that adds up to it. "
                "Play your Ace as 14: it takes [10 + 4] and [Q + 2], 5 cards! You never have to "
                "capture, but if you do, you take everything."
            ),
            {"type": "capture", "card": "AS", "value": 14, "groups": [["2S", "QD"], ["4C", "10H"]]},
            _("Not this one: play your Ace as 14 to take [10 + 4] and [Q + 2]."),
        ),
        Reply({"type": "trail", "card": "8H"}),
        Learn(
            _("Builds"),
            _(
                "Put a card from your hand on a table card to make a value: your 5 on the 8 makes a "
                "build of 13. You must hold a card that takes it: your K. Careful: the other player "
                "may take it with a K, or raise it!"
            ),
            {"type": "build", "card": "5D", "on": "8H", "value": 13},
            _("Not this one: put your 5 on the 8 to build 13, and keep your K."),
        ),
        Reply({"type": "trail", "card": "6S"}),
        Learn(
            _("While you own a build"),
            _(
                "You own a build: you may capture or build again, but you may not just lay a card "
                "down. Take your build of 13 with your K."
            ),
            {"type": "capture", "card": "KC", "value": 13, "groups": [["5D", "8H"]]},
            _("Take your build of 13 with your K."),
        ),
        Reply({"type": "trail", "card": "2H"}),
        Learn(
            _("Laying a card down"),
            _("You own no build now, so you may simply lay a card face up on the table. Lay down your 7."),
            {"type": "trail", "card": "7S"},
            _("Lay your 7 on the table."),
        ),
        Reply({"type": "trail", "card": "5C"}),
        Learn(
            _("Tripe"),
            _(
                "Put a card on a table card of the same rank while you hold another one: your 7 on "
                "the 7, keeping your other 7. A tripe is locked: only a 7 takes it (not an Ace as 14), "
                "and nobody may add another value to it."
            ),
            {"type": "tripe", "card": "7D", "on": "7S"},
            _("Not this one: put a 7 on the 7 on the table, and keep your other 7."),
        ),
        Reply({"type": "trail", "card": "9D"}),
        Learn(
            _("Taking your tripe"),
            _(
                "While you own a tripe you may not just lay a card down. Take it with your last 7: "
                "you take everything that makes 7, the [5 + 2] too."
            ),
            {"type": "capture", "card": "7H", "value": 7, "groups": [["2H", "5C"], ["7S", "7D"]]},
            _("Take your tripe with your last 7."),
        ),
        Read(
            _("Scoring"),
            _(
                "When the deck is used up and the hands are empty, the cards left on the table go to "
                "the last player who captured. Cards captured: 27-32 give 10 points, 33-35 give 15, "
                "36-39 give 20, 40-47 give 25, 48-52 give 30. Option: 4 Kings +10, 4 Aces +10."
            ),
        ),
        Read(
            _("The match"),
            _(
                "Against the computer, points add up and the first to 160 wins the match. Online there "
                "is no target: the player with more points in the game wins, and every game counts in "
                "the ranking. Play on to the end of this game if you like."
            ),
        ),
    ),
)
