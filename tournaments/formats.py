"""What comes next in a tournament, decided from its folded state: pure, no Django.

``next_round`` pairs the next round of any format (or says the tournament is over);
``decide_match`` turns a table's finished games into its result; ``standings`` and
``final_places`` rank the entrants. The pairing maths itself lives in ``pairing/``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from tournaments import board
from tournaments import standings as ranking
from tournaments.absence import absent_last, bye_points
from tournaments.duplicate import matchpoints
from tournaments.log import Result, Table, Tournament
from tournaments.pairing import dutch, roundrobin, schedule
from tournaments.pairing import tables as seating
from tournaments.pairing.bracket import Bracket

#: Games where the lowest score wins.
LOWER_SCORE_WINS = frozenset({"skyjo"})
DEFAULT_TIEBREAKS = {
    "swiss": ["match_points", "buchholz_cut1", "sonneborn_berger", "wins", "game_points"],
    "round_robin": ["match_points", "sonneborn_berger", "head_to_head", "wins", "game_points"],
    "single_elimination": ["match_points", "game_points"],
    "double_elimination": ["match_points", "game_points"],
    "table_elimination": ["placement_points", "game_points"],
}
EXTRA_GAMES = 4  # an elimination match still drawn after best_of games gets this many more at most


@dataclass(frozen=True)
class Pairing:
    round: int
    tables: list[tuple[str, list[int]]]  # (key, entrants in seat order)
    byes: list[int]  # pairing-allocated: a full point
    half_byes: list[int] = field(default_factory=list)  # requested: half a point, not paired
    locked: list[str] = field(default_factory=list)  # tables kept from before a re-pairing


def table_size(t: Tournament) -> int:
    return int(t.options.get("table_size", 2))


def lower_wins(t: Tournament) -> bool:
    return t.game in LOWER_SCORE_WINS


def meetings(t: Tournament) -> list[ranking.Meeting]:
    """Every result so far: matches (a forfeit counts as unplayed), byes — the pairing's (a full
    point), requested ones (½) — and the rounds a late entrant missed (0 or ½, its choice). In a
    round robin, a withdrawn entrant's results are annulled if it played fewer than half its games."""
    out: list[ranking.Meeting] = []
    annulled = _annulled(t)
    for rnd in t.rounds:
        for table in rnd.tables:
            if table.result is not None and not annulled & set(table.entrants):
                unplayed = bool(table.forfeit) and table.override is None
                out.append(
                    ranking.Meeting(rnd.number, table.result.places, table.result.scores, unplayed=unplayed)
                )
        out.extend(ranking.Meeting(rnd.number, {e: 1}, {}, bye=True) for e in rnd.byes if e not in annulled)
        out.extend(
            ranking.Meeting(rnd.number, {e: 1}, {}, bye=True, points=HALF_POINT)
            for e in rnd.half_byes
            if e not in annulled
        )
    for e in t.entrants.values():
        out.extend(
            ranking.Meeting(r, {e.id: 1}, {}, bye=True, points=e.missed_points)
            for r in range(1, e.joined_round + 1)
        )
    return out


HALF_POINT = Fraction(1, 2)


def _annulled(t: Tournament) -> set[int]:
    """Round robin (FIDE practice): an entrant who withdrew having played fewer than half of its
    games has all its results annulled; otherwise its remaining games are forfeited."""
    if t.format != "round_robin":
        return set()
    games = len(t.seeding) - 1
    out = set()
    for e in t.entrants.values():
        if not e.withdrawn:
            continue
        played = sum(
            1
            for rnd in t.rounds
            for table in rnd.tables
            if e.id in table.entrants and table.result is not None and not table.forfeit
        )
        if 2 * played < games:
            out.add(e.id)
    return out


def completed_rounds(t: Tournament) -> int:
    return sum(1 for rnd in t.rounds if rnd.complete())


def criteria(t: Tournament) -> list[str]:
    return criteria_for(t.format, t.options)


def criteria_for(fmt: str, options: dict[str, Any]) -> list[str]:
    """The standings' columns: the tie-breaks in order (and matchpoints first in duplicate mode)."""
    return list(options.get("tiebreaks") or DEFAULT_TIEBREAKS[fmt])


def standings(t: Tournament) -> list[ranking.Row]:
    rows = ranking.standings(
        list(t.entrants),
        meetings(t),
        criteria(t),
        lower_score_wins=lower_wins(t),
        bye_points=bye_points(t),
        # FIDE's rule for unplayed rounds (C.07 2023, Article 16) in a Swiss: byes, forfeits, late entries.
        virtual_opponents=completed_rounds(t) if t.format == "swiss" else None,
        table_size=table_size(t),
    )
    if not t.options.get("duplicate"):
        return rows
    # Duplicate: matchpoints against the field rank first; the usual criteria break their ties.
    points = duplicate_points(t)
    for row in rows:
        row.values["matchpoints"] = points.get(int(row.entrant), Fraction(0))
    order = sorted(rows, key=lambda r: (-r.values["matchpoints"], r.rank))
    ranked: list[ranking.Row] = []
    for i, row in enumerate(order):
        same = ranked and ranked[-1].values == row.values
        ranked.append(ranking.Row(ranked[-1].rank if same else i + 1, row.entrant, row.values))
    return ranked


def duplicate_points(t: Tournament) -> dict[int, Fraction]:
    """Each entrant's matchpoints: its seat's score against the same seat at every other table."""
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for rnd in t.rounds:
        by_size: dict[int, dict[str, tuple[Table, Result]]] = defaultdict(dict)
        for table in rnd.tables:
            if table.result is not None and table.games:
                by_size[len(table.entrants)][table.key] = (table, table.result)
        for group in by_size.values():
            if len(group) < 2:
                continue
            scores = {
                key: [result.scores.get(e, Fraction(0)) for e in table.entrants]
                for key, (table, result) in group.items()
            }
            for key, points in matchpoints(scores, lower_score_wins=lower_wins(t)).items():
                for entrant, p in zip(group[key][0].entrants, points, strict=True):
                    totals[entrant] += Fraction(p)
    return totals


def ranked_active(t: Tournament, rows: list[ranking.Row] | None = None) -> list[int]:
    """Active entrants, best first: by standings (``rows``, when already worked out) once games were
    played, else by seeding."""
    active = set(t.active())
    seed_pos = {e: i for i, e in enumerate(t.seeding)}
    if not any(rnd.tables for rnd in t.rounds):
        return sorted(active, key=lambda e: seed_pos.get(e, len(seed_pos) + e))
    rows = standings(t) if rows is None else rows
    order = {int(row.entrant): (row.rank, seed_pos.get(int(row.entrant), 0)) for row in rows}
    return sorted(active, key=lambda e: order.get(e, (10**6, e)))


def _primary(t: Tournament, rows: list[ranking.Row] | None = None) -> dict[int, float]:
    """The score groups of Swiss: each entrant's first criterion."""
    first = criteria(t)[0]
    return {int(r.entrant): float(r.values[first]) for r in (standings(t) if rows is None else rows)}


def _met(t: Tournament, before: int | None = None) -> dict[Hashable, dict[Hashable, int]]:
    """Who met whom how often (in rounds before ``before``, when given)."""
    met: dict[Hashable, dict[Hashable, int]] = defaultdict(lambda: defaultdict(int))
    for rnd in t.rounds:
        if before is not None and rnd.number >= before:
            continue
        for table in rnd.tables:
            for a in table.entrants:
                for b in table.entrants:
                    if a != b:
                        met[a][b] += 1
    return met


def seat_history(t: Tournament) -> seating.History:
    """Who acted first, and how early each sat, at the tables so far (for the seat order of the next
    round of a multi-player Swiss). A table counts its first game's order, the table's own: later games
    of a match rotate it (``service._start_game``)."""
    first: dict[int, int] = defaultdict(int)
    early: dict[int, Fraction] = defaultdict(Fraction)
    for rnd in t.rounds:
        for table in rnd.tables:
            last = len(table.entrants) - 1
            if last < 1:
                continue
            first[table.entrants[0]] += 1
            for seat, e in enumerate(table.entrants):
                early[e] += Fraction(last - seat, last)
    number = {e: i for i, e in enumerate(t.seeding)}
    number.update({e: len(t.seeding) + e for e in t.entrants if e not in number})
    return seating.History(len(t.rounds) + 1, first, early, number, rounds=swiss_rounds(t))


def bracket(t: Tournament) -> Bracket:
    """The elimination bracket, with every decided match recorded in the order it was played."""
    decided = [
        (table.key, winner_of(table.result))
        for rnd in t.rounds
        for table in rnd.tables
        if table.result is not None
    ]
    return bracket_of(t.format, t.options, t.seeding, decided)


def bracket_of(
    fmt: str, options: dict[str, Any], seeding: list[int], decided: list[tuple[str, int]]
) -> Bracket:
    """The bracket from its seeding and the winners of its decided matches, in playing order."""
    b = Bracket(
        seeding,
        double=fmt == "double_elimination",
        third_place=bool(options.get("third_place")),
        reset=bool(options.get("reset", True)),
    )
    for key, winner in decided:
        b.record(key, winner)
    return b


def winner_of(result: Result) -> int:
    return min(result.places, key=lambda e: (result.places[e], e))


def swiss_rounds(t: Tournament) -> int:
    """The Swiss's length: announced when it started (the organiser's number, else ⌈log₂ n⌉ of the
    entrants then) and changed only by the organiser (``tournament.rounds_changed``)."""
    if t.planned_rounds is not None:
        return t.planned_rounds
    return planned_rounds(t.options, len(t.active()))


def announced_rounds(t: Tournament) -> int | None:
    """How many rounds the tournament will play, where the format fixes it: a Swiss's length, a round
    robin's schedule once seeded (#37: the API said null for a running round robin); None otherwise."""
    if t.format == "swiss":
        return swiss_rounds(t)
    if t.format == "round_robin" and t.seeding:
        return len(roundrobin.berger_rounds([e for e in t.seeding if e in t.entrants]))
    return None


def planned_rounds(options: dict[str, Any], entrants: int) -> int:
    default = max(1, math.ceil(math.log2(max(2, entrants))))
    return int(options.get("rounds") or default)


def next_round(t: Tournament, keep: list[Table] | None = None) -> Pairing | None:
    """The next round's tables, or None when the tournament is over. ``keep``: tables of a Swiss
    round being paired again that the organiser locked (kept as they are, their entrants not
    paired again)."""
    number = len(t.rounds) + 1
    if t.format in ("single_elimination", "double_elimination"):
        knockout = bracket(t)
        if knockout.finished():
            return None
        pending = [(m.id, [cast(int, m.a), cast(int, m.b)]) for m in knockout.pending()]
        return Pairing(number, pending, [])
    if t.format == "round_robin":
        schedule = roundrobin.berger_rounds([e for e in t.seeding if e in t.entrants])
        if number > len(schedule):
            return None
        # A withdrawn entrant still meets the rest by forfeit, unless its results are annulled:
        # then its opponents simply have no game that round.
        annulled = _annulled(t)
        playing = {e for e in t.entrants if e not in annulled}
        tables: list[tuple[str, list[int]]] = []
        byes: list[int] = []
        for a, b in schedule[number - 1]:  # Berger's order is the seat order
            if a is None or b is None:
                byes.extend(int(x) for x in (a, b) if x is not None and x in playing)
            elif a in playing and b in playing:
                tables.append((f"R{number}-T{len(tables) + 1}", [int(a), int(b)]))
        return Pairing(number, tables, byes)
    if t.format == "swiss":
        if number > swiss_rounds(t):
            return None
        kept = keep or []
        half = sorted(e for e in t.active() if number in t.entrants[e].bye_requests)
        out = {e for table in kept for e in table.entrants} | set(half)
        first = [(table.key, list(table.entrants)) for table in kept]
        locked = [key for key, _e in first]
        keys = (f"R{number}-T{i}" for i in itertools.count(1) if f"R{number}-T{i}" not in locked)
        if table_size(t) > 2 and t.options.get("seating") == "fixed":
            fixed, byes = _fixed_round(t, number, out)
            return Pairing(number, first + [(next(keys), tb) for tb in fixed], byes, half, locked)
        if table_size(t) > 2:
            rows = standings(t)  # once: the ranking and the score groups both come from it
            ranked = [e for e in ranked_active(t, rows) if e not in out]
            if len(ranked) < 2:
                return Pairing(number, first, [int(e) for e in ranked], half, locked)
            seated = _table_swiss(t, ranked, rows)
            return Pairing(number, first + [(next(keys), tb) for tb in seated], [], half, locked)
        players = [p for p in swiss_players(t) if p.id not in out]
        if len(players) < 2:
            return Pairing(number, first, [cast(int, p.id) for p in players], half, locked)
        result = dutch.pair(players, last_round=number == swiss_rounds(t))
        tables = first + [(next(keys), [cast(int, a), cast(int, b)]) for a, b in result.pairs]
        return Pairing(
            number, tables, [cast(int, result.bye)] if result.bye is not None else [], half, locked
        )
    if t.format == "table_elimination":
        return _table_elimination(t, number)
    raise ValueError(f"unknown format {t.format!r}")


def _fixed_round(t: Tournament, number: int, out: set[int]) -> tuple[list[list[int]], list[int]]:
    """Round ``number`` of a fixed schedule over the seeding (``schedule.round_of``), seat 0 as the
    schedule planned it for the whole event (``schedule.first_seats``; a table whose planned first
    player is gone: to whoever acted first least)."""
    short = str(t.options.get("short_tables", "smaller"))
    present = set(t.active()) - out
    size, rounds = table_size(t), swiss_rounds(t)
    tables, byes = schedule.round_of(t.seeding, present, size, rounds, number, short)
    planned = schedule.firsts_of(t.seeding, size, rounds, number, short)
    history, order = seat_history(t), {e: i for i, e in enumerate(t.seeding)}
    return [
        seating.seat_order(tb, history, order, next((e for e in tb if e in planned), None)) for tb in tables
    ], byes


def _table_swiss(t: Tournament, ranked: list[int], rows: list[ranking.Row]) -> list[list[int]]:
    """A multi-player Swiss round's tables for ``ranked``, each in seat order (``pairing/tables.py``)."""
    primary = _primary(t, rows)
    span = seating.SPANS.get(str(t.options.get("seating", "standings")), 1)
    larger = t.options.get("short_tables") == "larger"
    seated = seating.seat_tables(
        ranked, table_size(t), primary, _met(t), history=seat_history(t), span=span, larger=larger
    )
    return [[int(x) for x in tb] for tb in seated]


def swiss_players(t: Tournament) -> list[dutch.Player]:
    """The active entrants as the two-player Swiss pairing sees them: score (the first criterion of
    the standings, counted here when it is match or placement points), pairing number (place in the
    seeding fixed at the start; late entries come after, in the order they came), and per round so
    far the seat taken (0 first, 1 second, None without a game: a bye, absent, a forfeit before any
    game), the float (DOWN: met a lower match score or had the bye, UP: met a higher one) and who was
    met."""
    active = t.active()
    place = {e: i for i, e in enumerate(t.seeding)}
    numbered = sorted(t.entrants, key=lambda e: (place.get(e, len(place)), e))
    number = {e: i + 1 for i, e in enumerate(numbered)}
    seats: dict[int, list[dutch.Seat]] = {e: [] for e in active}
    floats: dict[int, list[int]] = {e: [] for e in active}
    byes: dict[int, int] = dict.fromkeys(active, 0)
    points: dict[int, Fraction] = defaultdict(Fraction)  # match points before the round
    placed: dict[int, Fraction] = defaultdict(Fraction)  # placement points (no byes) before it
    for rnd in t.rounds:
        for e in active:
            seats[e].append(None)
            floats[e].append(0)
        gained: dict[int, Fraction] = defaultdict(Fraction)
        for e in rnd.byes:
            gained[e] += bye_points(t)
            if e in byes:
                byes[e] += 1
                floats[e][-1] = dutch.DOWN
        for e in rnd.half_byes:  # asked for: half a point, no float, not the pairing's bye
            gained[e] += HALF_POINT
        for late in t.entrants.values():  # a round a late entrant missed: 0 or ½, its choice
            if rnd.number <= late.joined_round:
                gained[late.id] += late.missed_points
        for table in rnd.tables:
            if len(table.entrants) != 2:
                continue
            a, b = table.entrants
            played = bool(table.games) and not table.forfeit
            for seat, (me, other) in enumerate(((a, b), (b, a))):
                if me in seats:
                    seats[me][-1] = seat if played else None
                    diff = points[me] - points[other]
                    floats[me][-1] = dutch.DOWN if diff > 0 else dutch.UP if diff < 0 else 0
        for table in rnd.tables:
            if table.result is not None:
                for e, p in ranking.table_points(table.result.places).items():
                    gained[e] += p
                    placed[e] += p
        for e, p in gained.items():
            points[e] += p
    # The score groups: the standings' first criterion. Match and placement points follow from the
    # results above (as standings.py counts them); any other first criterion asks the standings.
    first = criteria(t)[0]
    if first in ("match_points", "placement_points"):
        score = {e: (points if first == "match_points" else placed)[e] for e in active}
    else:
        score = dict.fromkeys(active, Fraction(0))
        if t.rounds:
            score.update({int(r.entrant): r.values[first] for r in standings(t) if int(r.entrant) in score})
    met = _met(t)
    return [
        dutch.Player(
            id=e,
            score=score[e],
            number=number[e],
            seats=tuple(seats[e]),
            floats=tuple(floats[e]),
            byes=byes[e],
            met=frozenset(met.get(e, {})),
        )
        for e in active
    ]


def _table_elimination(t: Tournament, number: int) -> Pairing | None:
    size = table_size(t)
    advance = int(t.options.get("advance", max(1, size // 2)))
    if not t.rounds:
        field = ranked_active(t)
    else:
        last = t.rounds[-1]
        if len(last.tables) == 1:
            return None  # the final table has been played
        seed_pos = {e: i for i, e in enumerate(t.seeding)}
        moving = []
        for table in last.tables:
            assert table.result is not None
            places = table.result.places
            moving += [(places[e], seed_pos.get(e, e), e) for e in table.entrants if places[e] <= advance]
        field = [e for _p, _s, e in sorted(moving)]
    if len(field) <= 1:
        return None
    sizes = seating.table_sizes(len(field), size)
    # Snake the field across the tables so every table gets a fair share of the strong players.
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    while i < len(field):
        for k in order:
            if len(tables[k]) < sizes[k] and i < len(field):
                tables[k].append(field[i])
                i += 1
        order.reverse()
    return Pairing(number, [(f"R{number}-T{k + 1}", tb) for k, tb in enumerate(tables)], [])


def final_places(t: Tournament) -> dict[int, int]:
    """The final ranking once the last round is over."""
    if t.format in ("single_elimination", "double_elimination"):
        return {cast(int, e): p for e, p in bracket(t).placings().items()}
    if t.format == "table_elimination":
        return _table_elimination_places(t)
    return {int(r.entrant): r.rank for r in standings(t)}


def _table_elimination_places(t: Tournament) -> dict[int, int]:
    places: dict[int, int] = {}
    seed_pos = {e: i for i, e in enumerate(t.seeding)}
    for rnd in reversed(t.rounds):
        out = []
        for table in rnd.tables:
            assert table.result is not None
            out += [
                (table.result.places[e], seed_pos.get(e, e), e) for e in table.entrants if e not in places
            ]
        start = len(places) + 1
        for place, _s, e in sorted(out):
            places[e] = start + sum(1 for p, _x, _y in out if p < place)
    for e in t.entrants:
        places.setdefault(e, len(t.entrants))
    return places


@dataclass(frozen=True)
class Played:
    """A finished game of a match, online or over the board: places and scores per entrant."""

    places: dict[int, int]
    scores: dict[int, Fraction]


def played(table: Table) -> list[Played]:
    """The match's finished games: those played online, then those recorded over the board (a round
    is one or the other)."""
    online = [Played(g.places, g.scores or {}) for g in table.games if g.places is not None]
    done = online + [Played(g.places, g.scores or {}) for g in table.board if g.places is not None]
    if not table.stand_ins:
        return done
    return [Played(absent_last(g.places, table.stand_ins), g.scores) for g in done]


def board_game_open(t: Tournament, table: Table) -> int | None:
    """The number of the game of an over-the-board match that takes an entry now, or None (the match
    is decided, or not played over the board)."""
    rnd = next((r for r in t.rounds if r.number == table.round), None)
    if rnd is None or not rnd.over_the_board or not rnd.started or table.result is not None:
        return None
    return len(table.recorded_board()) + 1


def board_seats(t: Tournament, table: Table, number: int) -> list[int]:
    """Who sits where in game ``number`` of a match over the board: as online (``service._start_game``)
    the first seat moves round the table from game to game."""
    order = list(table.entrants)
    turn = (number - 1) % len(order) if order else 0
    return order[turn:] + order[:turn]


def board_result(t: Tournament, table: Table, config: dict[str, Any], hands: list[dict[str, Any]]) -> Result:
    """A game's places and scores from the hands entered over the board (checked by ``board.score``)."""
    sheet = board.score(t.game, config, list(table.entrants), hands)
    return Result(dict(sheet.places), dict(sheet.totals))


def decide_match(t: Tournament, table: Table, elimination: bool) -> Result | None:
    """The match's result once its games settle it; None while another game is needed."""
    best_of = int(t.options.get("best_of", 1))
    done = played(table)
    at_time = any(r.time_called for r in t.rounds if r.number == table.round)
    if at_time and done:
        best_of = len(done)  # ended at time: the games played (one scored as it stood) decide
    waiting = any(g.hands is not None and g.places is None for g in table.board)
    if not done or table.live_game() is not None or waiting:
        return None
    scores: dict[int, Fraction] = {e: Fraction(0) for e in table.entrants}
    for g in done:
        for e, s in g.scores.items():
            scores[e] += s
    if len(table.entrants) > 2:
        if len(done) < best_of:
            return None
        # Placement points as the standings count them (ties share); every game has the whole table.
        points: dict[int, Fraction] = defaultdict(Fraction)
        for g in done:
            for e, p in ranking.table_points(g.places).items():
                points[e] += p
        sign = 1 if lower_wins(t) else -1
        key = {e: (-points[e], sign * scores[e]) for e in table.entrants}
        return Result(
            {e: 1 + sum(1 for o in table.entrants if key[o] < key[e]) for e in table.entrants}, scores
        )
    a, b = table.entrants
    wins = {a: 0, b: 0}
    for g in done:
        if g.places[a] < g.places[b]:
            wins[a] += 1
        elif g.places[b] < g.places[a]:
            wins[b] += 1
    need = best_of // 2 + 1
    for e, other in ((a, b), (b, a)):
        if wins[e] >= need or (len(done) >= best_of and wins[e] > wins[other]):
            return Result({e: 1, other: 2}, scores)
    if len(done) < best_of:
        return None
    if not elimination:
        return Result({a: 1, b: 1}, scores)
    if len(done) < best_of + EXTRA_GAMES and not at_time:
        return None  # a knockout needs a winner: play on (not after the round's time: the seeds decide)
    seed_pos = {e: i for i, e in enumerate(t.seeding)}
    first = min((a, b), key=lambda e: seed_pos.get(e, e))
    return Result({first: 1, (b if first == a else a): 2}, scores)


def forfeit_result(table: Table, absent: list[int]) -> Result:
    """Who came shares first place, who did not shares last (when nobody came, nobody wins)."""
    present = [e for e in table.entrants if e not in absent]
    places = {e: 1 for e in present}
    places.update({e: len(present) + 1 if present else len(table.entrants) for e in absent})
    return Result(places, {e: Fraction(0) for e in table.entrants})


def random_order(entrants: list[int], seed: int) -> list[int]:
    order = list(entrants)
    random.Random(seed).shuffle(order)
    return order
