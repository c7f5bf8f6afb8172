"""Provably fair deals (games/eventlog/commitment.py, replay/fair.py, docs/fair-deals.md).

- each engine's ``deals_in`` reads back from a played log exactly what its ``deal_of`` committed to;
- real games of every engine, finished through the service by computer seats, verify; a changed
  deal, a changed draw or a changed commitment does not;
- the salts stay on the server until the end, and the reveal opens no card that was never drawn.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import engines
from games.commands import controls
from games.engines.kazino.cards import DECK as KAZINO_DECK
from games.eventlog import commitment, store, timeline
from games.eventlog.tables import load_table
from games.live import publish
from games.models import Event
from replay import fair
from replay.export import export_game

from .forge import rehash
from .play import new_game, play

GAMES = [
    ("skyjo", 3, {"target": 20}),
    ("dominoes", 2, {"variant": "block", "target": 20}),
    ("dominoes", 3, {"variant": "draw", "target": 15}),
    ("kazino", 2, {"target": 20}),
    ("pitch", 4, {"partnerships": True, "max_hands": 3}),
]


def rows_of(game_id: int) -> list[timeline.Row]:
    return [timeline.Row(e.seq, e.type, e.data, e.actor, e.command_id) for e in store.load(game_id)]


def with_data(rows: list[timeline.Row], seq: int, data: dict[str, Any]) -> list[timeline.Row]:
    return [timeline.Row(r.seq, r.type, data, r.actor, r.command_id) if r.seq == seq else r for r in rows]


@pytest.mark.parametrize("name", engines.names())
def test_deals_in_reads_back_what_deal_of_commits_to(name: str) -> None:
    engine = engines.get(name)
    hooks = commitment.dealer(engine)
    for config in engine.sample_configs()[:6]:
        seed = random.randrange(2**40)
        events = engine.start(config, seed)
        state = engine.replay(events)
        rng = random.Random(seed)
        while engine.to_act(state):
            seat = engine.to_act(state)[0]
            for event in engine.decide(state, seat, rng.choice(engine.legal_actions(state, seat))):
                state = engine.apply(state, event)
                events.append(event)
        dealt = hooks.deals_in(events)
        assert dealt and min(dealt) == 1
        for hand, deal in dealt.items():
            committed = hooks.deal_of(events[0]["config"], seed, hand)
            assert deal["open"] == committed["open"], (name, config, seed, hand)
            assert deal["drawn"] == committed["stock"][: len(deal["drawn"])], (name, config, seed, hand)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_real_games_verify_and_a_changed_deal_does_not(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = new_game(name, players, options=options)
    log = store.load(game.pk)
    assert [e.type for e in log[:2]] == ["setup", commitment.COMMIT]  # committed before any deal
    assert fair.verify(game.pk).status == fair.PENDING
    table = play(game)
    log = store.load(game.pk)
    last_command = [e for e in log if e.command_id == log[-1].command_id]
    assert log[-1].type == commitment.REVEAL and last_command[0].actor != "system"  # with the final move
    verdict = fair.verify(game.pk)
    hands = len(commitment.dealer(table.engine).deals_in(table.timeline.engine_events()))
    assert verdict.ok and verdict.status == fair.VERIFIED, verdict
    assert verdict.hands == hands >= 1
    assert verdict.roots == (log[1].data["root"],)

    # A deal changed in the log (two cards of hand 1 swapped between seats) no longer verifies.
    rows = rows_of(game.pk)
    deal = next(
        r
        for r in rows
        if r.seq > 2 and commitment.dealer(table.engine).deals_in([{"type": r.type, **r.data}])
    )
    changed = json.loads(json.dumps(deal.data))
    _swap_two_cards(changed)
    bad = fair.verify_log(table.engine, with_data(rows, deal.seq, changed))
    assert bad.status == fair.FAILED and bad.seq == deal.seq and "Hand 1" in bad.message

    # So does a commitment whose leaves were changed after the fact (its root no longer holds).
    commit = rows[1]
    leaves = list(commit.data["leaves"])
    leaves[0] = "0" * 64
    bad = fair.verify_log(table.engine, with_data(rows, commit.seq, {**commit.data, "leaves": leaves}))
    assert bad.status == fair.FAILED and bad.seq == commit.seq


def _swap_two_cards(deal: dict[str, Any]) -> None:
    """Swap a card of the first two seats in a logged deal (Kazino: in the deck's first two packets)."""
    if "deck" in deal:
        deck = deal["deck"]
        deck[4], deck[8] = deck[8], deck[4]
    elif "grids" in deal:
        # Skyjo's cards repeat: swap with a card of the second grid that differs (the first grid's
        # first card and the discard can both equal it — a swap of equal cards changes nothing).
        grids = deal["grids"]
        other = next(k for k, card in enumerate(grids[1]) if card != grids[0][0])
        grids[0][0], grids[1][other] = grids[1][other], grids[0][0]
    else:
        hands = deal["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


@pytest.mark.django_db
def test_a_changed_draw_fails_and_the_reveal_opens_only_what_was_drawn() -> None:
    game = new_game("dominoes", 2, options={"variant": "draw", "target": 30}, seed=11)
    table = play(game)
    rows = rows_of(game.pk)
    draws = [r for r in rows if r.type == "draw"]
    assert draws, "a two-player Draw game to 30 draws from the boneyard"
    hooks = commitment.dealer(table.engine)
    dealt = hooks.deals_in(table.timeline.engine_events())
    reveal = rows[-1].data
    opened = {entry["hand"]: entry for entry in reveal["hands"]}
    assert set(opened) == set(dealt)
    setup = rows[0].data
    for hand, deal in dealt.items():
        assert opened[hand]["drawn"] == len(deal["drawn"])
        stock = hooks.deal_of(setup["config"], setup["seed"], hand)["stock"]
        undrawn = stock[len(deal["drawn"]) :]
        text = json.dumps(opened[hand])
        assert not any(f'"{tile}"' in text for tile in undrawn)
    # Any other tile in place of a drawn one breaks the proof.
    draw = draws[0]
    other = next(t for t in ("6-6", "0-0") if t != draw.data["tile"])
    bad = fair.verify_log(table.engine, with_data(rows, draw.seq, {**draw.data, "tile": other}))
    assert bad.status == fair.FAILED


@pytest.mark.django_db
def test_secrets_never_reach_the_tables_messages() -> None:
    game = new_game("pitch", 3, options={"max_hands": 2})
    for _ in range(300):
        table = load_table(game.pk)
        for seat in [None, *range(3)]:
            text = json.dumps(publish.table_message(table, seat, 0))
            assert commitment.SECRET not in text and "salt" not in text and "fair." not in text
        if table.outcome() is not None:
            break
        play(game, moves=1)
    assert table.outcome() is not None and store.load(game.pk)[-1].type == commitment.REVEAL
    key = Event.objects.get(game=game, type=commitment.COMMIT).data[commitment.SECRET]
    salts = [entry["salt"] for entry in store.load(game.pk)[-1].data["hands"]]
    shown = [json.dumps(export_game(game.pk, audience)) for audience in ("public", 0, 1, 2)]
    shown += [json.dumps(publish.snapshot(table, seat)) for seat in (None, 0, 1, 2)]
    for text in shown:
        assert key not in text and commitment.SECRET not in text
        assert not any(salt in text for salt in salts)


@pytest.mark.django_db
def test_long_games_are_committed_further_before_the_next_hands_are_dealt(monkeypatch: Any) -> None:
    monkeypatch.setattr(commitment, "HANDS_PER_COMMIT", 2)
    # 21 points cannot be reached in 5 hands of at most 4 points: every run deals all 5.
    game = new_game("pitch", 2, options={"max_hands": 5, "target": 21})
    table = play(game)
    log = store.load(game.pk)
    commits = [e for e in log if e.type == commitment.COMMIT]
    assert [c.data["hands"] for c in commits] == [[1, 2], [3, 4], [5, 6]]
    deals = {e.data["hand"]: e.seq for e in log if e.type == "deal"}
    for commit in commits:
        first = commit.data["hands"][0]
        assert commit.seq < deals[first]
    assert len([e for e in log if e.type == commitment.REVEAL]) == 3
    verdict = fair.verify(game.pk)
    assert verdict.ok and verdict.hands == 5 == len(deals)
    assert table.outcome() is not None


@pytest.mark.django_db
def test_stacked_decks_duplicate_seeds_and_abandoned_games_verify() -> None:
    stacked = new_game("kazino", 2, options={"match": "single", "deck": list(reversed(KAZINO_DECK))})
    play(stacked)
    assert store.load(stacked.pk)[2].data["deck"] == list(reversed(KAZINO_DECK))
    assert fair.verify(stacked.pk).ok
    twins = [new_game("pitch", 3, options={"max_hands": 2}, seed=77, kind="tournament") for _ in range(2)]
    for twin in twins:
        play(twin)
        assert fair.verify(twin.pk).ok
    roots = [fair.verify(t.pk).roots for t in twins]
    assert roots[0] != roots[1]  # the same deals, each table with its own salts
    left = new_game("dominoes", 4, options={"variant": "block", "target": 50})
    play(left, moves=6)
    controls.abandon(left.pk, "forfeit-1", reason="no_show", by="system")
    assert store.load(left.pk)[-1].type == commitment.REVEAL
    verdict = fair.verify(left.pk)
    assert verdict.ok and verdict.hands == 1


@pytest.mark.django_db
def test_restart_and_new_game_keep_the_proof(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("fair-player")
    game = new_game("dominoes", 2, options={"variant": "draw", "target": 10}, humans={0: user})
    play(game, moves=4)
    seq = load_table(game.pk).seq
    controls.restart(game.pk, "restart-1", seq, by="seat:0")
    assert fair.verify(game.pk).status == fair.PENDING
    play(game)
    assert fair.verify(game.pk).ok
    seq = load_table(game.pk).seq
    controls.new_game(game.pk, "again-1", seq, by="seat:0")
    verdict = fair.verify(game.pk)
    assert verdict.status == fair.PENDING
    new_commit = store.load(game.pk)[seq + 2]
    assert new_commit.type == commitment.COMMIT and verdict.roots == (new_commit.data["root"],)
    play(game)
    assert fair.verify(game.pk).ok


@pytest.mark.django_db
def test_the_command_checks_a_stored_game_and_an_exported_file(tmp_path: Any) -> None:
    game = new_game("skyjo", 2, options={"target": 20})
    play(game)
    out = io.StringIO()
    call_command("verify_deals", str(game.pk), stdout=out)
    assert out.getvalue().startswith("verified:")
    path = tmp_path / "game.json"
    doc = export_game(game.pk, "all")
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    call_command("verify_deals", "--file", str(path), stdout=out)
    assert "verified" in out.getvalue()

    # A deal changed in the file, with every hash recomputed so the chain holds: the proof fails.
    dealt = next(e for e in doc["events"] if e["type"] == "dealt")
    grids = dealt["data"]["grids"]
    a = grids[0].index(next(c for c in grids[0] if c not in grids[1]))
    grids[0][a], grids[1][0] = grids[1][0], grids[0][a]
    rehash(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(CommandError, match="Hand 1 does not match"):
        call_command("verify_deals", "--file", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="no game"):
        call_command("verify_deals", "999999", stdout=io.StringIO())
