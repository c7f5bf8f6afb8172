"""Pitch, step by step: one whole hand for two players, the learner bidding and pitching in hearts.

The computer deals. The learner holds A J 2 of hearts, K 10 of spades and 4 of clubs; the computer
3 of hearts, 9 8 of diamonds, Q of clubs, 7 of spades and 6 of clubs. Only these 12 cards are dealt.
"""

from __future__ import annotations

from games.engines.base import _
from games.lessons import Learn, Lesson, Read, Reply

LESSON = Lesson(
    slug="pitch",
    engine="pitch",
    config={
        "players": 2,
        "dealer": 1,
        # Dealt three at a time, the learner first.
        "deck": ["AH", "JH", "2H", "3H", "9D", "8D", "KS", "10S", "4C", "QC", "7S", "6C"],
    },
    computer_match=_("Against the computer: 2 to 7 players; the first pitcher to end a hand at 7 wins."),
    friends_match=_("With friends: invite them, or play two partnerships of two."),
    script=(
        Read(
            _("The deal"),
            _(
                "Each player gets six cards. Ace is high, 2 is low. Each hand gives four points: High, "
                "Low, Jack and Game."
            ),
        ),
        Learn(
            _("Bidding"),
            _(
                "Each player has one chance to bid: pass, 1, 2, 3 or 4 — how many of the four points "
                "you will take. Your hearts are strong: bid 2."
            ),
            {"type": "bid", "amount": 2},
            _("Bid 2."),
        ),
        Reply({"type": "pass"}),
        Learn(
            _("Trump"),
            _(
                "You are the pitcher: you lead, and the suit of your first card is trump for the whole "
                "hand. Lead the Ace of hearts."
            ),
            {"type": "play", "card": "AH"},
            _("Lead the Ace of hearts: it makes hearts trump."),
        ),
        Reply({"type": "play", "card": "3H"}),
        Learn(
            _("The Jack of trump"),
            _("Your Ace won the trick, so you lead again. Lead the Jack of hearts: winning it is a point."),
            {"type": "play", "card": "JH"},
            _("Lead the Jack of hearts."),
        ),
        Reply({"type": "play", "card": "9D"}),
        Learn(
            _("Low: the lowest trump"),
            _("The lowest trump dealt is a point for whoever wins it. Lead your 2 of hearts."),
            {"type": "play", "card": "2H"},
            _("Lead the 2 of hearts."),
        ),
        Reply({"type": "play", "card": "8D"}),
        Learn(
            _("Following suit"),
            _(
                "If you can follow the suit led you may, or play a trump; if you cannot, play any "
                "card. Lead your King of spades: the computer must follow with a spade if it has one."
            ),
            {"type": "play", "card": "KS"},
            _("Lead the King of spades."),
        ),
        Reply({"type": "play", "card": "7S"}),
        Learn(
            _("Game: trick points"),
            _(
                "Game goes to the most trick points: 10 = 10, Ace 4, King 3, Queen 2, Jack 1. Lead your 10 of spades."
            ),
            {"type": "play", "card": "10S"},
            _("Lead the 10 of spades."),
        ),
        Reply({"type": "play", "card": "QC"}),
        Learn(
            _("The last trick"),
            _("Play your last card, the 4 of clubs: a higher club, or any trump, would take this trick."),
            {"type": "play", "card": "4C"},
            _("Play the 4 of clubs."),
        ),
        Reply({"type": "play", "card": "6C"}),
        Read(
            _("Scoring"),
            _(
                "You took High, Low, Jack and Game: 4 points, at least your bid of 2, so you score all "
                "4. A pitcher who falls short loses the bid from their score."
            ),
        ),
        Read(
            _("Winning"),
            _(
                "The first player to reach 7 points at the end of a hand in which they were the "
                "pitcher wins. Play on if you like."
            ),
        ),
    ),
)
