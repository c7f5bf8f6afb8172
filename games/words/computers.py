"""What computer players are called: "Computer 3 (Strong)", in the reader's language, everywhere.

A computer player is a role, a number and a level — never a name typed or composed once in one
language. The number is its seat's at a table (seat 2 is "Computer 2") and its entrant's in a
tournament, where every seat it takes keeps it (entrant "Computer 3 (Strong)" is "Computer 3
(Strong)" at each of its tables). Rows store the number and the level (``Seat.bot_number``,
``Entry.bot_number``, the ``bot_number`` of ``entrant.registered``, rating keys ``bot:LEVEL:N``) and
every page names them with ``name`` in the reader's language. The level names are the glossary's
(docs/glossary.md, "Computer players"): Beginner (``random``), Easy (``greedy``), Strong
(``strong``), Expert (``expert``); the internal names never show.

Stored display names (``stored_name``, in English) are only for logs, exports and the admin.
Names written before this existed ("Bot 6 (greedy)", "Òdinatè 2 (fasil)", "Greedy 1") are read
back by ``legacy_number`` and ``legacy_level``.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

LEVELS = ("random", "greedy", "strong", "expert")
LEVEL_NAMES = {"random": _("Beginner"), "greedy": _("Easy"), "strong": _("Strong"), "expert": _("Expert")}
_ENGLISH = {"random": "Beginner", "greedy": "Easy", "strong": "Strong", "expert": "Expert"}
_KEY = re.compile(r"^bot:(random|greedy|strong|expert):(\d{1,6})$")


def name(number: int, level: str) -> str:
    """ "Computer 3 (Strong)" in the active language; ``number`` as it is shown (from 1)."""
    level_name = LEVEL_NAMES.get(level, level)
    return gettext("Computer %(n)s (%(level)s)") % {"n": number, "level": level_name}


def stored_name(number: int, level: str) -> str:
    """The English name a row keeps for logs and exports (pages use ``name``)."""
    return f"Computer {number} ({_ENGLISH.get(level, level)})"


def rating_key(level: str, number: int) -> str:
    """A computer player's key in the ratings: the same player whatever language its table used."""
    return f"bot:{level}:{number}"


def from_rating_key(key: str) -> tuple[str, int] | None:
    """(level, number) of a computer's rating key, None for anyone else."""
    found = _KEY.match(key)
    return (found.group(1), int(found.group(2))) if found else None


# Every name the code ever gave a computer player: "Computer 3 (Strong)" and its translations
# ("Òdinatè 3 (fò)", "Computer 3 (magaling)"), the simulations' "Bot 3 (greedy)", the demo's
# "Greedy 3" and the play command's "greedy 3".
_LEGACY = re.compile(
    r"^(?:computer|kompyuter|òdinatè|bot|random|greedy|strong|beginner|easy)\s+(\d{1,6})\s*(?:\(([^()]*)\))?$",
    re.I,
)
_LEVEL_WORDS = {
    "random": "random",
    "beginner": "random",
    "debitan": "random",
    "baguhan": "random",
    "greedy": "greedy",
    "easy": "greedy",
    "intermediate": "greedy",
    "fasil": "greedy",
    "madali": "greedy",
    "strong": "strong",
    "fò": "strong",
    "magaling": "strong",
    "expert": "expert",
    "ekspè": "expert",
    "eksperto": "expert",
}


def legacy_number(text: str) -> int | None:
    """The number in a computer player's name as it used to be stored, None if it is not one."""
    found = _LEGACY.match(text.strip())
    return int(found.group(1)) if found else None


def legacy_level(text: str) -> str | None:
    """The level named in such a name ("Bot 3 (greedy)", "Òdinatè 3 (fò)", "Strong 2"), if any."""
    found = _LEGACY.match(text.strip())
    if not found:
        return None
    word = (found.group(2) or text.split()[0]).strip().lower()
    return _LEVEL_WORDS.get(word)
