"""Standings: entrants ranked by an ordered list of tie-break criteria, from finished meetings.

Pure and exact (every value is a ``Fraction``); stdlib only. A meeting is a two-player match, a
multi-player table or a bye; its ``places`` say who finished where (equal places are a tie).

Sign convention: every value is stored as the players see it, and a higher value ranks higher,
except that with ``lower_score_wins`` (Skyjo) ``game_points`` and ``point_difference`` rank the
lower value higher. Places already encode who won, so the other criteria never change direction.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

E = TypeVar("E", bound=Hashable)  # an entrant id; generic so that a dict[int, int] of places type-checks

CRITERIA: tuple[str, ...] = (
    "match_points",
    "placement_points",
    "game_points",
    "point_difference",
    "buchholz",
    "buchholz_cut1",
    "buchholz_median",
    "sonneborn_berger",
    "head_to_head",
    "wins",
)
_SCORE_CRITERIA = frozenset({"game_points", "point_difference"})
HALF = Fraction(1, 2)
_ZERO = Fraction(0)


@dataclass(frozen=True)
class Meeting(Generic[E]):
    """One finished pairing. ``scores`` are game points (may be empty); a bye has a single entrant.

    A bye scores ``points`` (None: the ``bye_points`` of the standings — a pairing-allocated bye);
    a requested half-point bye or a round a late entrant missed is a bye of ½ or 0. ``unplayed``: a
    result by forfeit, which counts in the score but, like a bye, not as a game for the tie-breaks.
    """

    round: int
    places: Mapping[E, int]
    scores: Mapping[E, Fraction | int] = field(default_factory=dict)
    bye: bool = False
    points: Fraction | None = None
    unplayed: bool = False


@dataclass(frozen=True)
class Row(Generic[E]):
    rank: int
    entrant: E
    values: dict[str, Fraction]


def table_points(places: Mapping[E, int], table_size: int | None = None) -> dict[E, Fraction]:
    """Placement points at one table: (table size - position), tied entrants sharing the average of
    the positions they cover. Only the order of ``places`` matters, so 1, 2, 2, 4 and 1, 2, 2, 3
    both give 3, 1½, 1½, 0.

    With ``table_size`` (the tournament's size S), a table of n players is scaled to be worth the same
    on average as a full one: position p scores (n - p) · (S - 1) / (n - 1). A full table keeps its
    points (3/2/1/0 at S = 4), a table of 3 then pays 3/1½/0 rather than 2/1/0, a table of 2 pays 3/0:
    every table averages (S - 1) / 2 a player."""
    size = len(places)
    scale = Fraction(table_size - 1, size - 1) if table_size and size > 1 else Fraction(1)
    ordered = sorted(places.values())
    points: dict[int, Fraction] = {}
    position = 1
    for place in sorted(set(ordered)):
        shared = ordered.count(place)
        # Positions position .. position + shared - 1, averaged.
        points[place] = size - Fraction(2 * position + shared - 1, 2)
        if scale != 1:
            points[place] *= scale
        position += shared
    return {who: points[place] for who, place in places.items()}


def result_against(meeting: Meeting[E], who: E, against: E) -> Fraction:
    """1 if ``who`` placed above ``against`` at this meeting, ½ if equal, 0 if below."""
    mine, theirs = meeting.places[who], meeting.places[against]
    return Fraction(1) if mine < theirs else HALF if mine == theirs else Fraction(0)


def _check(entrants: Sequence[E], meetings: Sequence[Meeting[E]], criteria: Sequence[str]) -> None:
    unknown = [c for c in criteria if c not in CRITERIA]
    if unknown:
        raise ValueError(f"unknown criterion {unknown[0]!r}; valid criteria: {', '.join(CRITERIA)}")
    if len(set(criteria)) != len(criteria):
        raise ValueError(f"criteria repeat: {list(criteria)}")
    if len(set(entrants)) != len(entrants):
        raise ValueError("entrants must be distinct")
    known = set(entrants)
    for m in meetings:
        strangers = [e for e in m.places if e not in known]
        if strangers:
            raise ValueError(f"round {m.round}: {strangers[0]!r} is not among the entrants")
        if m.bye and len(m.places) != 1:
            raise ValueError(f"round {m.round}: a bye has exactly one entrant, not {len(m.places)}")
        if not m.bye and len(m.places) < 2:
            raise ValueError(f"round {m.round}: a meeting needs two entrants or more (or bye=True)")
        extra = [e for e in m.scores if e not in m.places]
        if extra:
            raise ValueError(f"round {m.round}: {extra[0]!r} has a score but no place")


def standings(
    entrants: Sequence[E],
    meetings: Sequence[Meeting[E]],
    criteria: Sequence[str],
    lower_score_wins: bool = False,
    bye_points: Fraction = Fraction(1),
    virtual_opponents: int | None = None,
    table_size: int | None = None,
) -> list[Row[E]]:
    """Rows best first. Entrants equal on every criterion share a rank (1, 2, 2, 4) and keep the
    order of ``entrants`` among themselves.

    - match_points: placement points of every meeting, plus ``bye_points`` per bye;
      placement_points: the same without byes. With ``table_size``, a shorter table's points are
      scaled to the same average as a full table's (``table_points``).
    - game_points: sum of scores (a score recorded with a bye counts too; one left out counts 0);
      point_difference: per meeting, own score minus the mean of the others' (byes: nothing).
    - buchholz: opponents' match points, once per opponent per meeting; cut1 drops the lowest
      contribution (when two or more), median the lowest and highest (when three or more).
    - sonneborn_berger: each opponent's match points times the result against them (1, ½, 0).
    - Unplayed rounds (``virtual_opponents``: the rounds played so far; Swiss events), after FIDE's
      tie-break regulations of 2023 (C.07, Article 16), the same in both: a round an entrant did not
      play (any bye, a forfeit won or lost, a round missed) counts as a game against a *dummy* with
      the entrant's own score (one per opponent a full table gives), worth in Sonneborn-Berger that
      score times what the round scored; an opponent adds its own score, except that the rounds
      after the last one it came to (withdrawn) count as draws; a cut drops a voluntarily unplayed
      round's dummy (a requested bye, a round missed, a forfeit lost) before any real opponent.
      Without ``virtual_opponents`` (round robins, knockouts) an unplayed round adds nothing.
    - head_to_head: result points (1, ½, 0 per opponent) against the others of one's group still
      tied on every earlier criterion (0 alone in one's group).
    - wins: meetings (not byes) where the entrant was sole first.

    Unplayed meetings (forfeits) count in match points only: not as games for game points' mean,
    point difference, the Buchholz family, Sonneborn-Berger, head-to-head or wins.
    """
    _check(entrants, meetings, criteria)
    zero = Fraction(0)
    # Each entrant's contributions to the sums, added at the end (``_sum``).
    summed = ("match_points", "placement_points", "game_points", "point_difference", "wins")
    parts: dict[str, dict[E, list[Fraction | int]]] = {name: {e: [] for e in entrants} for name in summed}
    played: dict[E, list[Meeting[E]]] = {e: [] for e in entrants}
    # Per entrant, per round: what it scored in a round it did not play (for virtual opponents).
    unplayed: dict[E, dict[int, Fraction]] = {e: {} for e in entrants}
    by_round: dict[E, dict[int, Fraction]] = {e: {} for e in entrants}
    # Rounds not played by choice or default (C.07 16.2: a requested bye, a round missed, a forfeit
    # lost): not the pairing's bye, not a forfeit won.
    voluntary: dict[E, set[int]] = {e: set() for e in entrants}
    for m in meetings:
        # A score left out of a scored meeting (an organiser's correction, say) counts 0.
        scores = {who: Fraction(m.scores.get(who, 0)) for who in m.places} if m.scores else {}
        for who, s in scores.items():
            parts["game_points"][who].append(s)
        if m.bye:
            (who,) = m.places
            got = bye_points if m.points is None else Fraction(m.points)
            parts["match_points"][who].append(got)
            unplayed[who][m.round] = unplayed[who].get(m.round, zero) + got
            by_round[who][m.round] = by_round[who].get(m.round, zero) + got
            if m.points is not None:
                voluntary[who].add(m.round)
            continue
        total = _sum(scores.values()) if scores else zero
        first = min(m.places.values())
        alone_first = list(m.places.values()).count(first) == 1
        for who, points in table_points(m.places, table_size).items():
            parts["match_points"][who].append(points)
            parts["placement_points"][who].append(points)
            by_round[who][m.round] = by_round[who].get(m.round, zero) + points
            if m.unplayed:
                unplayed[who][m.round] = unplayed[who].get(m.round, zero) + points
                if not (alone_first and m.places[who] == first):
                    voluntary[who].add(m.round)
                continue
            played[who].append(m)
            if alone_first and m.places[who] == first:
                parts["wins"][who].append(1)
            if scores:
                # Own score minus the mean of the others': (n·own − total) / (n − 1), one division.
                parts["point_difference"][who].append((len(scores) * scores[who] - total) / (len(scores) - 1))
    totals: dict[str, dict[E, Fraction]] = {
        name: {e: _sum(values) for e, values in parts[name].items()} for name in summed
    }
    final = totals["match_points"]
    # What an opponent adds to Buchholz and Sonneborn-Berger (C.07 16.3): its score, and a "dummy" per
    # unplayed round of one's own (16.4), the same in every tie-break that reads opponents' scores.
    adds = dict(final)
    dummies: dict[E, list[tuple[bool, Fraction, Fraction]]] = {e: [] for e in entrants}
    if virtual_opponents is not None:
        rounds = virtual_opponents
        seats = (table_size or 2) - 1  # opponents a full table gives, a dummy for each
        draw = Fraction(seats, 2)
        for e in entrants:
            mine = by_round[e]
            present = [r for r in mine if r not in voluntary[e]]
            last = max(present, default=0)
            # 16.3.2: the rounds after the last one it came to (withdrawn, or absent to the end) are
            # draws in what it adds to its opponents.
            later = range(last + 1, rounds + 1)
            adds[e] = final[e] - sum((mine.get(r, zero) for r in later), zero) + draw * len(later)
            # A round with no meeting at all (after a withdrawal) is unplayed too, worth nothing.
            absent = {r: zero for r in range(1, rounds + 1) if r not in mine}
            voluntary[e] |= set(absent)
            for r, got in sorted({**unplayed[e], **absent}.items()):
                # 16.4: an unplayed round counts as a game against a dummy opponent with one's own score;
                # Sonneborn-Berger weighs it by what the round scored.
                share = got / seats
                dummies[e] += [(r in voluntary[e], final[e], final[e] * share)] * seats
    for name in ("buchholz", "buchholz_cut1", "buchholz_median", "sonneborn_berger"):
        totals[name] = {}
    for e in entrants:
        # (voluntary, opponent's score, Sonneborn-Berger part): real opponents, then dummies.
        faced = [(False, adds[o], _weighed(adds[o], m, e, o)) for m in played[e] for o in m.places if o != e]
        faced += dummies[e]
        whole = _sum(f[1] for f in faced)
        totals["buchholz"][e] = whole
        # 16.5: a cut takes a voluntarily unplayed round's dummy first, then the lowest.
        low = min(faced, key=lambda f: (not f[0], f[1]), default=None)
        totals["buchholz_cut1"][e] = whole - low[1] if low is not None and len(faced) >= 2 else whole
        if "buchholz_median" in criteria:  # (only what is asked for: each takes a pass over the opponents)
            high = max(faced, key=lambda f: f[1], default=None)
            totals["buchholz_median"][e] = (
                whole - low[1] - high[1]
                if low is not None and high is not None and len(faced) >= 3
                else whole
            )
        totals["sonneborn_berger"][e] = _sum(f[2] for f in faced)
    return _rank(list(entrants), criteria, totals, played, lower_score_wins)


def _sum(values: Iterable[Fraction | int]) -> Fraction:
    """The exact sum, numerators added per denominator: the same value as adding the ``Fraction``s
    one by one, without normalising after every addition (a round of 512 entrants adds some 50,000)."""
    by: dict[int, int] = {}
    for v in values:
        d = v.denominator
        by[d] = by.get(d, 0) + v.numerator
    if len(by) == 1:
        ((d, n),) = by.items()
        return Fraction(n, d)
    return sum((Fraction(n, d) for d, n in by.items()), Fraction(0))


def _weighed(score: Fraction, meeting: Meeting[E], who: E, against: E) -> Fraction:
    """``score`` times the result of ``who`` against ``against`` (``result_against``) without
    multiplying by 1 or 0."""
    mine, theirs = meeting.places[who], meeting.places[against]
    return score if mine < theirs else score * HALF if mine == theirs else _ZERO


def _head_to_head(group: list[E], played: Mapping[E, list[Meeting[E]]]) -> dict[E, Fraction]:
    members = set(group)
    return {
        e: sum(
            (result_against(m, e, o) for m in played[e] for o in m.places if o != e and o in members),
            Fraction(0),
        )
        for e in group
    }


def _rank(
    entrants: list[E],
    criteria: Sequence[str],
    totals: Mapping[str, Mapping[E, Fraction]],
    played: Mapping[E, list[Meeting[E]]],
    lower_score_wins: bool,
) -> list[Row[E]]:
    """Split the tied groups criterion by criterion, best group first."""
    values: dict[E, dict[str, Fraction]] = {e: {} for e in entrants}
    groups = [entrants]
    for name in criteria:
        ascending = lower_score_wins and name in _SCORE_CRITERIA
        refined: list[list[E]] = []
        for group in groups:
            # Head-to-head depends on who is still tied, so it is the one criterion worked out per group.
            of = _head_to_head(group, played) if name == "head_to_head" else totals[name]
            for e in group:
                values[e][name] = of[e]
            tied: dict[Fraction, list[E]] = {}
            for e in group:
                tied.setdefault(of[e], []).append(e)
            refined.extend(tied[level] for level in sorted(tied, reverse=not ascending))
        groups = refined
    rows: list[Row[E]] = []
    for group in groups:
        rank = len(rows) + 1
        rows.extend(Row(rank, e, values[e]) for e in group)
    return rows
