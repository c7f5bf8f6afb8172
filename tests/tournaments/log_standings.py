"""The standings of a Swiss tournament worked out from its exported ``log.json`` alone, by the tests
(tests/tournaments/test_evening.py, tests/e2e/test_whole_evening.py) and never by the project's
standings code: what the log says, folded again by hand (docs/tournaments.md, FIDE C.07 Article 16).

Covers what a director's evening brings: games played online (a seat a computer stood in for is placed
last), results entered with real cards, an organiser's correction, a forfeit, byes, late entries
(the rounds they missed count nothing), withdrawals (FIDE 16.3: the rounds after an opponent's last
count as draws in what that opponent adds), the organiser's swaps and moves before a round starts, and
undo: an event a ``console.undone`` event revokes (its ``revokes``: the ``seq`` of each event it takes
back) counts as if it had never been logged."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction


def _points(places: dict[int, int], size: int) -> dict[int, Fraction]:
    """Placement points, scaled to a full table of ``size``: a shared place shares its positions."""
    n = len(places)
    out = {}
    for e, p in places.items():
        above = sum(1 for q in places.values() if q < p)
        tied = sum(1 for q in places.values() if q == p)
        position = Fraction(2 * (above + 1) + tied - 1, 2)  # the mean of the positions they share
        out[e] = (n - position) * Fraction(size - 1, n - 1)
    return out


def _revoked(events: list[dict]) -> set[int]:
    """The seqs the undo events take back (a log's seq: its 1-based place in the stream)."""
    return {int(s) for e in events if e["type"] == "console.undone" for s in e["data"].get("revokes", [])}


def _edit(tables: dict[str, list[int]], byes: list[int], data: dict) -> None:
    """The organiser's change to a paired round: a swap of two players, or one moved to a table."""
    if data["edit"] == "swap":
        a, b = int(data["a"]), int(data["b"])
        for who in [*tables.values(), byes]:
            who[:] = [b if x == a else a if x == b else x for x in who]
    elif data["edit"] == "move":
        moved = int(data["entrant"])
        for who in [*tables.values(), byes]:
            if moved in who:
                who.remove(moved)
        (byes if data["table"] == "bye" else tables[data["table"]]).append(moved)
    elif data["edit"] not in ("lock", "unlock"):  # a lock changes no table
        raise AssertionError(f"this fold does not know the pairing edit {data['edit']!r}")


def independent_standings(events: list[dict]) -> dict[int, tuple[int, dict[str, Fraction]]]:
    gone = _revoked(events)
    events = [e for position, e in enumerate(events, start=1) if e.get("seq", position) not in gone]
    created = events[0]["data"]
    size = int(created["options"]["table_size"])
    lower_wins = created["game"] == "skyjo"
    entrants: list[int] = []
    rounds: dict[int, dict[str, list[int]]] = {}
    byes: dict[int, list[int]] = {}
    game_places: dict[str, dict[int, int]] = {}
    game_scores: dict[str, dict[int, Fraction]] = {}
    stand_ins: dict[str, set[int]] = defaultdict(set)
    override: dict[str, tuple[dict[int, int], dict[int, Fraction]]] = {}
    forfeit: set[str] = set()
    forfeit_places: dict[str, dict[int, int]] = {}
    missed: dict[int, int] = {}
    started = 0
    for event in events:
        kind, data = event["type"], event["data"]
        if kind == "entrant.registered":
            entrants.append(data["entrant"])
            if started:
                missed[data["entrant"]] = started  # rounds already under way: scored 0 ("zero")
                assert data.get("missed", "zero") == "zero"
        elif kind == "round.paired":
            rounds[data["round"]] = {tb["key"]: list(tb["entrants"]) for tb in data["tables"]}
            byes[data["round"]] = list(data.get("byes", []))
        elif kind == "round.edited":
            _edit(rounds[data["round"]], byes[data["round"]], data)
        elif kind == "round.started":
            started = data["round"]
        elif kind == "game.finished" or kind == "result.recorded":  # one game a match here (best of 1)
            game_places[data["table"]] = {int(k): v for k, v in data["places"].items()}
            game_scores[data["table"]] = {int(k): Fraction(v) for k, v in data["scores"].items()}
        elif kind == "seat.stood_in":
            stand_ins[data["table"]].add(data["entrant"])
        elif kind == "result.overridden":
            override[data["table"]] = (
                {int(k): v for k, v in data["places"].items()},
                {int(k): Fraction(v) for k, v in data["scores"].items()},
            )
        elif kind == "result.forfeited":
            forfeit.add(data["table"])
            forfeit_places[data["table"]] = {int(k): v for k, v in data["places"].items()}
    # Each table's result: the organiser's correction, else the game with absentees placed last.
    results: dict[int, list[tuple[dict[int, int], dict[int, Fraction], bool]]] = defaultdict(list)
    for number, tables in rounds.items():
        for key, who in tables.items():
            if key in override:
                places, scores = override[key]
                results[number].append((places, scores, False))
                continue
            if key in forfeit:
                results[number].append((forfeit_places[key], {}, True))
                continue
            raw = game_places[key]
            gone = stand_ins.get(key, set())
            present = {e: p for e, p in raw.items() if e not in gone}
            places = {e: 1 + sum(1 for q in present.values() if q < p) for e, p in present.items()}
            places.update({e: len(present) + 1 for e in gone})
            assert set(places) == set(who)
            results[number].append((places, game_scores[key], False))
    played_rounds = len(rounds)
    bye_value = created["options"].get("bye_value", "half")
    bye_points = {
        "": Fraction(1),
        "full": Fraction(size - 1),
        "half": Fraction(size - 1, 2),
        "none": Fraction(0),
    }[bye_value]
    mp: dict[int, Fraction] = defaultdict(Fraction)
    gp: dict[int, Fraction] = defaultdict(Fraction)
    wins: dict[int, int] = defaultdict(int)
    by_round: dict[int, dict[int, Fraction]] = defaultdict(dict)
    voluntary: dict[int, set[int]] = defaultdict(set)
    unplayed: dict[int, dict[int, Fraction]] = defaultdict(dict)
    met: dict[int, list[int]] = defaultdict(list)
    for number, found in results.items():
        for places, scores, was_forfeit in found:
            points = _points(places, size)
            sole = [e for e, p in places.items() if p == 1]
            for e in places:
                mp[e] += points[e]
                gp[e] += scores.get(e, Fraction(0))
                by_round[e][number] = points[e]
                if was_forfeit:
                    unplayed[e][number] = points[e]
                    if not (len(sole) == 1 and sole[0] == e):
                        voluntary[e].add(number)
                    continue
                if len(sole) == 1 and sole[0] == e:
                    wins[e] += 1
                met[e] += [o for o in places if o != e]
        for e in byes.get(number, []):
            mp[e] += bye_points
            by_round[e][number] = bye_points
            unplayed[e][number] = bye_points
    for e, rounds_missed in missed.items():
        for number in range(1, rounds_missed + 1):
            by_round[e][number] = Fraction(0)
            unplayed[e][number] = Fraction(0)
            voluntary[e].add(number)
    # FIDE C.07 16.3–16.4: what an opponent adds (later rounds after its last as draws), and a dummy
    # with one's own score for each round not played (one per opponent a full table gives).
    seats = size - 1
    adds: dict[int, Fraction] = {}
    buchholz: dict[int, Fraction] = {}
    for e in entrants:
        present = [r for r in by_round[e] if r not in voluntary[e]]
        last = max(present, default=0)
        later = range(last + 1, played_rounds + 1)
        adds[e] = (
            mp[e]
            - sum((by_round[e].get(r, Fraction(0)) for r in later), Fraction(0))
            + Fraction(seats, 2) * len(later)
        )
    for e in entrants:
        missing = [r for r in range(1, played_rounds + 1) if r not in by_round[e]]
        dummies = (len(unplayed[e]) + len(missing)) * seats
        buchholz[e] = sum((adds[o] for o in met[e]), Fraction(0)) + dummies * mp[e]
    values = {
        e: {"match_points": mp[e], "buchholz": buchholz[e], "wins": Fraction(wins[e]), "game_points": gp[e]}
        for e in entrants
    }

    def key(e: int) -> tuple:
        v = values[e]
        return (
            -v["match_points"],
            -v["buchholz"],
            -v["wins"],
            v["game_points"] if lower_wins else -v["game_points"],
        )

    order = sorted(entrants, key=lambda e: (key(e), entrants.index(e)))
    out: dict[int, tuple[int, dict[str, Fraction]]] = {}
    for i, e in enumerate(order):
        rank = i + 1 if i == 0 or key(order[i - 1]) != key(e) else out[order[i - 1]][0]
        out[e] = (rank, values[e])
    return out
