"""Hand histories (replay/export.py, replay/importer.py, docs/hand-history.md).

- property: random finished games of every engine; the public export and every seat's export show at
  each moment exactly ``engine.view`` for that audience and no card hidden from it at that moment, no
  seed, deck or salt key, and no card that audience never saw during the whole game;
- "all" exports round-trip through import_game with the same chain; an edited file (with or without
  its hashes recomputed), a public file or a malformed one is refused and nothing is stored.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games import engines
from games.eventlog import queries, store
from games.eventlog.tables import load_table, spectator_cut
from games.models import Event, Game, Seat
from replay import fair
from replay.export import Refused, export_game
from replay.history import BadFile
from replay.importer import import_history

from .forge import rehash
from .play import new_game, play

# Keys only a reveal or a raw event has (a view's "boneyard" or "draw_pile" is a count).
FORBIDDEN_KEYS = {"seed", "deck", "salt", "salts", "secret_key", "draw_order", "boneyard_tiles"}


def _config(name: str, players: int, variant: str) -> dict[str, Any]:
    if name == "skyjo":
        return {"target": 15}
    if name == "dominoes":
        return {"variant": variant, "target": 15}
    if name == "kazino":
        return {"match": "single"}
    return {"max_hands": 2}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def _token(card: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9-])" + re.escape(card) + r"(?![A-Za-z0-9-])")


@pytest.mark.django_db
@pytest.mark.parametrize("name", engines.names())
@settings(
    max_examples=4,
    deadline=None,
    phases=[
        Phase.explicit,
        Phase.reuse,
        Phase.generate,
    ],  # a failing game is printed; shrinking replays too many
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(2, 4),
    variant=st.sampled_from(["block", "draw", "all_fives"]),
    seed=st.integers(0, 2**40),
)
def test_an_audiences_export_holds_only_what_it_saw(name: str, players: int, variant: str, seed: int) -> None:
    players = 2 if name == "kazino" else players
    game = new_game(name, players, options=_config(name, players, variant), seed=seed)
    table = play(game)
    engine = table.engine
    # The states after each engine event in effect, folded here independently of the export.
    states, seqs = [], []
    state = engine.replay([])
    for seq, event in table.timeline.numbered_events():
        state = engine.apply(state, event)
        states.append(state)
        seqs.append(seq)
    for audience in ["public", *range(players)]:
        doc = export_game(game.pk, audience)
        text = json.dumps(doc, ensure_ascii=False)
        seat = None if audience == "public" else audience
        assert [m["seq"] for m in doc["moments"]] == seqs
        for moment, after in zip(doc["moments"], states, strict=True):
            view = engine.view(after, seat)
            if isinstance(view.get("config"), dict):
                view["config"] = {k: v for k, v in view["config"].items() if k not in ("deck", "seed")}
            assert moment["picture"] == json.loads(json.dumps(view))
            assert "data" not in moment or moment["type"] in engine.PUBLIC_EVENTS
            # Nor anything this audience could not see at that moment (a leak ahead of time).
            moment_text = json.dumps(moment, ensure_ascii=False)
            for card in engine.hidden_from(after, seat):
                assert not _token(card).search(moment_text), (audience, moment["seq"], card)
        assert not _keys(doc) & FORBIDDEN_KEYS, _keys(doc) & FORBIDDEN_KEYS
        assert "events" not in doc and "hash" not in _keys(doc)
        # Concretely, no hidden card: what this audience never saw in any view of the game appears
        # nowhere in its file (Skyjo's cards are repeating numbers: its views are compared above).
        never = set.intersection(*(set(engine.hidden_from(s, seat)) for s in states))
        if name == "pitch":
            hands = states[-1].hand_no
            assert len(never) >= 52 - 6 * players * hands  # at least the cards never dealt in any hand
        for card in never:
            assert not _token(card).search(text), (audience, card)


@pytest.mark.django_db
def test_an_all_export_round_trips_through_import(tmp_path: Path) -> None:
    with transaction.atomic():  # the game is played on "another server": rolled back once exported
        game = new_game("dominoes", 3, options={"variant": "draw", "target": 15})
        play(game)
        doc = export_game(game.pk, "all")
        result = queries.result(game.pk)
        seats = list(game.seats.values_list("display_name", "bot_level"))
        stored = [
            (e.seq, e.type, e.data, e.actor, e.command_id, e.hash, e.created_at) for e in store.load(game.pk)
        ]
        transaction.set_rollback(True)
    assert not Game.objects.exists()
    assert doc["format"] == "tablehall.hand-history" and doc["format_version"] == 1
    assert doc["game"]["engine"] == "dominoes" and doc["game"]["engine_version"] == 1
    assert [s["name"] for s in doc["seats"]] == ["Bot 0", "Bot 1", "Bot 2"]
    assert not {"token", "user", "user_id", "email"} & _keys(doc["seats"])
    assert [(e["seq"], e["type"], e["hash"]) for e in doc["events"]] == [(e[0], e[1], e[5]) for e in stored]
    assert {"setup", "fair.commit", "deal", "fair.reveal"} <= {e["type"] for e in doc["events"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = io.StringIO()
    call_command("import_game", str(path), stdout=out)
    copy = Game.objects.get()
    assert f"stored as game {copy.pk}" in out.getvalue()
    assert copy.status == Game.Status.FINISHED and copy.config == doc["game"]["config"]
    assert list(copy.seats.values_list("display_name", "bot_level")) == seats
    imported = [
        (e.seq, e.type, e.data, e.actor, e.command_id, e.hash, e.created_at) for e in store.load(copy.pk)
    ]
    assert imported == stored
    assert queries.result(copy.pk) == result
    assert fair.verify(copy.pk).ok
    again = export_game(copy.pk, "all")
    assert again["events"] == doc["events"] and again["outcome"] == doc["outcome"]

    # The same file twice: the game is recognised by its last hash, and nothing more is stored.
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 of 1 files refused"):
        call_command("import_game", str(path), stdout=io.StringIO(), stderr=err)
    assert f"already stored here, as game {copy.pk}" in err.getvalue()
    assert Game.objects.count() == 1


def _edited(game: Game, edit: Any, *, forge: bool) -> dict[str, Any]:
    doc = export_game(game.pk, "all")
    edit(doc)
    if forge:
        rehash(doc)
    return doc


def _first(doc: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(e for e in doc["events"] if e["type"] == kind)


def _swap_hands(doc: dict[str, Any]) -> None:
    hands = _first(doc, "deal")["data"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def _move_for_another_seat(doc: dict[str, Any]) -> None:
    move = next(e for e in doc["events"] if e["actor"].startswith("bot:"))
    move["data"]["seat"] = (move["data"]["seat"] + 1) % 3


def _drop_last_move(doc: dict[str, Any]) -> None:
    last = doc["events"][-1]["command_id"]
    doc["events"] = [e for e in doc["events"] if e["command_id"] != last]


def _claim_other_winner(doc: dict[str, Any]) -> None:
    doc["outcome"]["winners"] = [w + 1 for w in doc["outcome"]["winners"]]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("edit", "forge", "reason"),
    [
        (_swap_hands, False, r"event 3: its hash does not match"),
        (_swap_hands, True, r"event 3: an opening that is not the one the engine deals from its seed"),
        (_move_for_another_seat, True, r"event \d+: not what a legal move of seat \d makes"),
        (_drop_last_move, True, r"the game in this file is not over"),
        (_claim_other_winner, False, r"the outcome in the file is not the one its events lead to"),
    ],
)
def test_an_edited_file_is_refused_and_nothing_is_stored(edit: Any, forge: bool, reason: str) -> None:
    game = new_game("pitch", 3, options={"max_hands": 2})
    play(game)
    doc = _edited(game, edit, forge=forge)
    games, events, seats = Game.objects.count(), Event.objects.count(), Seat.objects.count()
    with pytest.raises(BadFile, match=reason):
        import_history(doc)
    assert (Game.objects.count(), Event.objects.count(), Seat.objects.count()) == (games, events, seats)


@pytest.mark.django_db
def test_an_edited_commitment_with_a_consistent_log_is_refused() -> None:
    """Even a forger who recomputes every hash cannot change a deal under the commitment: the deal
    would have to come from another seed, and the commitment's root would no longer match."""
    game = new_game("skyjo", 2, options={"target": 15})
    play(game)

    def edit(doc: dict[str, Any]) -> None:
        commit = _first(doc, "fair.commit")["data"]
        commit["leaves"][0] = "f" * 64

    with pytest.raises(BadFile, match="fair-deal proof fails"):
        import_history(_edited(game, edit, forge=True))
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_files_that_cannot_be_verified_are_refused_clearly(tmp_path: Path) -> None:
    game = new_game("kazino", 2, options={"match": "single"})
    play(game)
    public = export_game(game.pk, "public")
    with pytest.raises(BadFile, match='only "all" exports hold every event'):
        import_history(public)
    good = export_game(game.pk, "all")
    broken: list[tuple[Any, str]] = [
        ([], "not a JSON object"),
        ({**good, "format": "other"}, "not a hand-history file"),
        ({**good, "format_version": 9}, "format version 9"),
        ({**good, "events": []}, '"events" is missing or empty'),
        ({**good, "events": [{**good["events"][0], "hash": "xyz"}]}, "event 1: bad hash"),
        ({**good, "events": good["events"][1:]}, "has seq 2"),
        ({**good, "seats": good["seats"][:1]}, "1 seats for a game of 2 players"),
        ({**good, "game": {**good["game"], "engine": "chess"}}, "no engine called 'chess'"),
        ({**good, "game": {**good["game"], "engine_version": 2}}, "version 2"),
    ]
    for doc, reason in broken:
        with pytest.raises(BadFile, match=re.escape(reason)):
            import_history(doc)
    assert Game.objects.count() == 1
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="1 of 1 files refused"):
        call_command("import_game", str(path), stdout=io.StringIO(), stderr=io.StringIO())


@pytest.mark.django_db
def test_what_may_be_exported_while_a_game_is_played() -> None:
    game = new_game("skyjo", 2, options={"target": 15}, spectator_delay=2)
    play(game, moves=6)
    with pytest.raises(Refused, match="not over"):
        export_game(game.pk, "all")
    with pytest.raises(Refused, match="would show a live hand"):
        export_game(game.pk, 0)
    with pytest.raises(Refused, match="seats 0 to 1"):
        export_game(game.pk, 5)
    with pytest.raises(Refused, match="there is no game 999999"):
        export_game(999999, "public")
    doc = export_game(game.pk, "public")  # the spectators' picture, as delayed
    table = load_table(game.pk)
    assert doc["outcome"] is None and doc["fair"]["status"] == fair.PENDING
    assert doc["moments"][-1]["seq"] <= spectator_cut(table) < table.seq
    with pytest.raises(CommandError, match="not over"):
        call_command("export_game", str(game.pk), stdout=io.StringIO())


@pytest.mark.django_db
def test_export_all_writes_one_file_per_finished_game(tmp_path: Path) -> None:
    done = [new_game("pitch", 2, options={"max_hands": 1}) for _ in range(2)]
    for game in done:
        play(game)
    new_game("pitch", 2, options={"max_hands": 1})  # still being played: not exported
    out = io.StringIO()
    call_command("export_game", "--all", "--out", str(tmp_path), stdout=out)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"game-{g.pk}-all.json" for g in done)
    assert "wrote 2 files" in out.getvalue()
    call_command("export_game", str(done[0].pk), "--perspective", "1", "--out", str(tmp_path), stdout=out)
    seat = json.loads((tmp_path / f"game-{done[0].pk}-seat1.json").read_text(encoding="utf-8"))
    assert seat["perspective"] == 1 and seat["moments"]
    with pytest.raises(CommandError, match="give --out"):
        call_command("export_game", "--all", stdout=io.StringIO())
    with pytest.raises(CommandError, match="all, public or a seat number"):
        call_command("export_game", str(done[0].pk), "--perspective", "north", stdout=io.StringIO())
