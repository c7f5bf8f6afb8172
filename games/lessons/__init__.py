"""Lessons: a game taught step by step on a real table (docs/lessons.md).

A lesson is data: a stacked deal (the engine's ``config["deck"]``: the deal is still an event that
carries its outcome) and a script in the order of play — steps to read, the learner's moves (each
with what it teaches and what to say when another move is tried) and the computer's replies. Seat 0
is the learner's. Texts are English templates marked for translation (``_``), translated where they
are shown. ``tests/games/test_lessons.py`` replays every script through its engine, so a lesson can
never teach an illegal move.

Each seat follows its own part of the script (its n-th move is its n-th scripted move): where the
players act at once (Skyjo's opening) the order between them does not matter, and elsewhere the
engine keeps the turns. Past the end of the script the game goes on as an ordinary one against the
computer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LEARNER = 0


@dataclass(frozen=True)
class Read:
    """A step with nothing to play: the learner reads it and goes on."""

    title: str
    text: str


@dataclass(frozen=True)
class Learn:
    """The learner's move: ``text`` teaches it; ``wrong`` explains when another legal move is tried."""

    title: str
    text: str
    action: dict[str, Any]
    wrong: str


@dataclass(frozen=True)
class Reply:
    """A computer's scripted move."""

    action: dict[str, Any]
    seat: int = 1


Entry = Read | Learn | Reply


@dataclass(frozen=True)
class Lesson:
    slug: str  # the address: /learn/SLUG/
    engine: str
    config: dict[str, Any]
    script: tuple[Entry, ...]
    # What the two ways to play at the end say about the match (the rules page's words).
    computer_match: str = ""
    friends_match: str = ""
    # The new-table form's options for a game with friends (the rules' way to play online).
    friends_options: dict[str, str] = field(default_factory=dict)
    seed: int = 0
    steps: tuple[Read | Learn, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(e for e in self.script if not isinstance(e, Reply)))

    def moves(self, seat: int) -> list[dict[str, Any]]:
        """The seat's scripted moves, in order."""
        if seat == LEARNER:
            return [e.action for e in self.script if isinstance(e, Learn)]
        return [e.action for e in self.script if isinstance(e, Reply) and e.seat == seat]

    def played(self) -> list[tuple[int, dict[str, Any]]]:
        """Every scripted move, (seat, action), in the order the script plays them."""
        return [
            (LEARNER, e.action) if isinstance(e, Learn) else (e.seat, e.action)
            for e in self.script
            if not isinstance(e, Read)
        ]

    def learn_step(self, made: int) -> Learn | None:
        """The step that teaches the learner's move number ``made`` (from 0); None past the script."""
        learns = [e for e in self.steps if isinstance(e, Learn)]
        return learns[made] if made < len(learns) else None


def _registry() -> dict[str, Lesson]:
    from games.lessons import dominoes, kazino, pitch, skyjo

    return {lesson.slug: lesson for lesson in (kazino.LESSON, skyjo.LESSON, dominoes.LESSON, pitch.LESSON)}


ORDER = ("kazino", "skyjo", "dominoes", "pitch")


def get(slug: str) -> Lesson | None:
    return _registry().get(slug)


def all_lessons() -> list[Lesson]:
    found = _registry()
    return [found[slug] for slug in ORDER]


def of_engine(engine: str) -> Lesson | None:
    """The lesson a lesson table plays: one per game (Block, Draw and All Fives share dominoes')."""
    return next((lesson for lesson in _registry().values() if lesson.engine == engine), None)


def same_action(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two actions are the same move (a group's cards in any order)."""
    return bool(_canonical(a) == _canonical(b))


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [_canonical(v) for v in value]
        return sorted(items, key=repr)
    return value
