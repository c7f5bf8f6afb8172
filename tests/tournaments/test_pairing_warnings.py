"""The pairing warnings a director reads before starting a round (#30 defect 7): a repeat always, a
score difference only where it means something."""

from __future__ import annotations

import pytest

from tests.tournaments.test_absence import finish_round
from tournaments import formats, projection, round_warnings, service
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)  # games end on commit


def _after_round_one(table_size: int, players: int):
    from django.contrib.auth import get_user_model

    td = get_user_model().objects.create_user("td")
    options = {"table_size": table_size, "auto_start": False, "rounds": 3, "game_config": {"target": 20}}
    row = service.create("Warnings", "skyjo", "swiss", options, by=td)
    for _n in range(players):
        service.register(row, "", bot_level="random", by=td)
    service.start(row, by=td)
    service.start_round(row, by=td)
    # Played out by the computers (a match in play is not corrected: #37 item 3), then the places set
    # as the test needs them.
    finish_round(row)
    for match in Match.objects.filter(tournament=row, round=1):
        service.override(
            row, match.key, {str(e): k + 1 for k, e in enumerate(match.entrants)}, None, "r1", by=td
        )
    service.repair(row, by=td)  # round 2 was paired from the games' places: paired again (stale)
    t = projection.load(row.stream_id)
    assert t.current.number == 2 and not t.current.started
    return row, t


def test_tables_of_four_drawn_from_the_standings_raise_no_score_warning():
    # After one round at tables of 4 the placement points are fractions; a table drawn from the
    # standings mixes them, and that is no news to a director (it fired on nearly every table).
    _row, t = _after_round_one(4, 8)
    assert [w for w in round_warnings.pairing_warnings(t) if w.code == "score_group"] == []


def test_a_table_of_four_more_than_a_round_apart_is_worth_a_warning(monkeypatch):
    _row, t = _after_round_one(4, 8)
    # Two rounds later someone with every first place may sit with someone with every last.
    scores = formats._primary(t)
    top = max(scores, key=scores.get)
    bottom = min(scores, key=scores.get)
    scores[top] += 1.5  # as if a round more had been won
    table = next(tb for tb in t.current.tables if top in tb.entrants)
    other = next(tb for tb in t.current.tables if bottom in tb.entrants and tb is not table)
    i, j = table.entrants.index(next(e for e in table.entrants if e != top)), other.entrants.index(bottom)
    table.entrants[i], other.entrants[j] = bottom, table.entrants[i]
    spread = max(scores[e] for e in table.entrants) - min(scores[e] for e in table.entrants)
    assert spread > 1
    monkeypatch.setattr(formats, "_primary", lambda _t, rows=None: scores)  # that later round's
    warned = [w for w in round_warnings.pairing_warnings(t) if w.code == "score_group"]
    assert table.key in [w.table for w in warned]


def test_two_players_with_different_scores_are_still_a_float():
    _row, t = _after_round_one(2, 4)
    (a, b), (c, d) = (tb.entrants for tb in t.current.tables)
    t.current.tables[0].entrants[1], t.current.tables[1].entrants[0] = c, b  # a winner meets a loser
    assert any(w.code == "score_group" for w in round_warnings.pairing_warnings(t))
