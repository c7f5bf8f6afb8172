"""How long a round takes (tournaments/estimate.py) from measured and simulated game lengths
(games/eventlog/lengths.py)."""

from __future__ import annotations

import pytest

from games import engines
from games.commands import controls
from games.eventlog import lengths, timeline
from games.eventlog.lengths import Played
from tests.replay.play import new_game, play
from tournaments import estimate

SKYJO = engines.compose("skyjo", {}, 4)
KEY = lengths.length_key(SKYJO)
# A stored table of simulated lengths, as estimate_game_lengths writes it.
TABLE = {
    "rows": [
        {"engine": "skyjo", "key": {"players": 4, "target": 100}, "moves": 300, "hands": 5},
        {"engine": "pitch", "key": {"players": 4, "partnerships": False, "target": 7, "max_hands": None},
         "moves": 160, "hands": 8},
    ]
}  # fmt: skip


def people(n: int, *, moves: int = 200, seconds: float = 1500.0, key: str = KEY) -> list[Played]:
    return [Played(key, moves, seconds, True) for _ in range(n)]


def computers(n: int, *, moves: int = 250, key: str = KEY) -> list[Played]:
    return [Played(key, moves, 60.0, False) for _ in range(n)]


def test_before_enough_games_a_game_is_its_simulated_moves_at_six_seconds_a_move():
    game = estimate.game_length("skyjo", SKYJO, played=[], table=TABLE)
    assert game == estimate.GameLength(300, 300 * 6 / 60, estimate.SIMULATED, 0, 6.0)
    assert estimate.game_length("skyjo", SKYJO, played=people(19), table=TABLE).source == estimate.SIMULATED


def test_twenty_games_played_by_people_override_with_their_minutes():
    played = people(19) + people(1, seconds=3000.0) + computers(30)
    game = estimate.game_length("skyjo", SKYJO, played=played, table=TABLE)
    assert game.source == estimate.MEASURED and game.games == 20
    assert game.minutes == 1500 / 60 and game.moves == 200  # medians


def test_twenty_games_with_computers_give_the_moves_at_the_measured_or_assumed_pace():
    game = estimate.game_length("skyjo", SKYJO, played=computers(20), table=TABLE)
    assert (game.source, game.moves, game.minutes) == (estimate.MOVES, 250, 250 * 6 / 60)
    # People's games of other options give the pace (seconds a move): 1200 s / 100 moves.
    other = lengths.length_key(engines.compose("skyjo", {"target": 50}, 4))
    paced = estimate.game_length(
        "skyjo", SKYJO, played=computers(20) + people(20, moves=100, seconds=1200.0, key=other), table=TABLE
    )
    assert paced.pace == 12.0 and paced.minutes == 250 * 12 / 60


def test_a_target_not_simulated_scales_the_nearest_one():
    double = engines.compose("skyjo", {"target": 200}, 4)
    assert lengths.simulated_moves("skyjo", double, TABLE) == 600
    assert lengths.simulated_moves("skyjo", engines.compose("skyjo", {}, 3), TABLE) is None  # no such table
    limited = engines.compose("pitch", {"max_hands": 4}, 4)
    assert lengths.simulated_moves("pitch", limited, TABLE) == 80  # 4 of its usual 8 hands
    assert lengths.simulated_moves("pitch", engines.compose("pitch", {"max_hands": 50}, 4), TABLE) == 160


def test_a_round_is_its_games_rounded_up_to_five_minutes():
    one = estimate.round_length("skyjo", SKYJO, 1, played=[], table=TABLE)
    three = estimate.round_length("skyjo", SKYJO, 3, played=[], table=TABLE)
    assert (one.minutes, three.minutes, three.best_of) == (30, 90, 3)  # 30.0 and 90.0 minutes
    short = estimate.round_length("skyjo", SKYJO, 1, played=people(20, seconds=61.0), table=TABLE)
    assert short.minutes == 5
    assert estimate.round_length("skyjo", engines.compose("skyjo", {}, 3), 1, played=[], table=TABLE) is None


@pytest.mark.django_db
def test_a_tournaments_round_is_composed_for_its_tables():
    found = estimate.for_tournament(
        "dominoes", {"table_size": 2, "best_of": 3, "game_config": {"variant": "all_fives"}}
    )
    table = lengths.simulated()
    row = next(r for r in table["rows"] if r["engine"] == "dominoes" and r["key"]["variant"] == "all_fives"
               and r["key"]["players"] == 2)  # fmt: skip
    assert row["key"]["target"] == 250
    assert found is not None and found.game.moves == row["moves"] and found.best_of == 3


def test_the_stored_table_covers_every_config_the_forms_offer_by_default():
    stored = {(r["engine"], lengths.length_key(r["key"])) for r in lengths.simulated()["rows"]}
    for config in lengths.simulated_configs():
        engine = config.pop("game")
        assert (engine, lengths.length_key(config)) in stored, (engine, config)


@pytest.mark.django_db(transaction=True)
def test_finished_whole_games_are_measured_and_a_taken_back_one_is_not():
    done = new_game("kazino", 2, options={"match": "single"}, humans={0: None})
    play(done)
    undone = new_game("kazino", 2, options={"match": "single"}, humans={0: None})
    table = play(undone, moves=3)
    controls.undo(undone.pk, "u-1", table.seq, by="seat:0")
    play(undone)
    computers_only = new_game("kazino", 2, options={"match": "single"})
    play(computers_only)
    found = lengths.measured("kazino", fresh=True)
    assert len(found) == 2  # the taken-back game is not a whole game
    key = lengths.length_key(engines.compose("kazino", {"match": "single"}, 2))
    assert {p.key for p in found} == {key} and all(p.moves == 48 for p in found)  # 48 cards played
    assert sorted(p.people_only for p in found) == [False, False]  # a computer sat at each
    assert all(p.seconds >= 0 for p in found)
    assert timeline.UNDO in lengths.NOT_WHOLE
