"""The review to look at (#33, "a review to look at"): its graph, drawn on the server from the
review's own figures, and the better move on the board, worked out on the position BEFORE the
move it judges (a "Better" line was once described on the board after it)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.errors import ServiceError
from games.models import Game
from replay import better, frames, graph, review
from replay.access import Viewer
from replay.frames import ALL, PUBLIC
from replay.models import Review

from .play import new_game, play
from .test_review import dominoes_game, reviewed

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = {
    "dominoes": (2, {"variant": "all_fives", "target": 30}),
    "skyjo": (2, {"target": 20}),
    "kazino": (2, {"match": "single"}),
    "pitch": (2, {"max_hands": 2}),
}
NOBODY = Viewer(user_id=None, seats=frozenset())


def key(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def fabricated(replay: frames.Replay, *, most: int = 8) -> list[dict[str, Any]]:
    """Decisions as a review stores them, without the bot's search: at each real decision the move
    played (recognised as the review does) and, as the 'better' one, another legal action. Every
    other one is flagged, the first a mistake, the next an inaccuracy."""
    engine = replay.engine
    out: list[dict[str, Any]] = []
    steps = review.commands(replay)
    for first, last in steps:
        seat = review._seat_of(replay.moments[first].actor)
        state = replay.states[first - 1]
        if seat is None:
            continue
        legal = engine.legal_actions(state, seat)
        if not review.is_decision(engine, state, seat, legal):
            continue
        played = review.played_action(engine, state, seat, legal, replay.events[first : last + 1])
        other = next(a for a in legal if key(a) != key(played))
        flagged = len(out) % 2 == 0
        label = [review.MISTAKE, review.INACCURACY][len(out) // 2 % 2] if flagged else None
        out.append(
            {
                "seq": replay.moments[first].seq,
                "seat": seat,
                "hand": replay.moments[first - 1].hand,
                "options": len(legal),
                "played": played,
                "best": other if flagged else played,
                "played_value": 0.0,
                "best_value": 12.5 if flagged else 0.0,
                "loss": 12.5 if flagged else 0.25,
                "label": label,
            }
        )
    # Spread over the game: the opening, the middle and the end.
    if len(out) > most:
        step = len(out) / most
        out = [out[int(k * step)] for k in range(most)]
    return out


def done(game: Game, decisions: list[dict[str, Any]]) -> None:
    Review.objects.update_or_create(
        game=game,
        defaults={
            "status": Review.Status.DONE,
            "decisions": decisions,
            "summary": {
                "seats": review.summarize([review.Decision(**d) for d in decisions], 2),
                "unit": "points",
            },
            "finished_at": timezone.now(),
        },
    )


def imagined(replay: frames.Replay, decision: dict[str, Any], perspective: Any) -> dict[str, Any]:
    """The test's own reading: the state before the decision's first event, the better action's
    events applied by the engine while the hand lasts, seen from ``perspective``."""
    engine = replay.engine
    first = next(m.index for m in replay.moments if m.seq == decision["seq"])
    state = replay.states[first - 1]
    hand = engine.view(state, None).get("hand")
    for event in engine.decide(state, decision["seat"], decision["best"]):
        following = engine.apply(state, event)
        if engine.view(following, None).get("hand") != hand:
            break
        state = following
    return frames.picture_of(engine, state, perspective)


def without_secrets(picture: dict[str, Any]) -> dict[str, Any]:
    config = picture.get("config")
    if isinstance(config, dict):
        return {**picture, "config": {k: v for k, v in config.items() if k not in ("deck", "seed")}}
    return picture


@pytest.fixture(params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> Game:
    players, options = GAMES[request.param]
    played = new_game(request.param, players, options=options, seed=11)
    play(played)
    return played


def test_the_better_board_is_the_better_move_played_on_the_position_before(game: Game) -> None:
    replay = frames.load(game.pk)
    decisions = fabricated(replay)
    assert sum(1 for d in decisions if d["label"]) >= 2, "the game has decisions to flag"
    done(game, decisions)
    for d in decisions:
        if not d["label"]:
            with pytest.raises(ServiceError) as refused:
                better.board(replay, NOBODY, d["seq"], PUBLIC)
            assert refused.value.code == "no_better_move"
            continue
        first = replay.index_of(d["seq"])
        # The position before is the one the move played was made on: the engine makes the logged
        # events from it (from the position after, it would not).
        end = graph.command_end(replay, d["seq"])
        assert (
            replay.engine.decide(replay.states[first - 1], d["seat"], d["played"])
            == replay.events[first : end + 1]
        )
        for perspective in (d["seat"], PUBLIC, ALL):
            shown = better.board(replay, NOBODY, d["seq"], perspective)
            assert shown["picture"] == json.loads(
                json.dumps(without_secrets(imagined(replay, d, perspective)))
            ), (game.engine, d["seq"], perspective)
            assert shown["before"] == replay.moments[first - 1].seq
            assert (shown["best"], shown["played"]) == (d["best"], d["played"])
            config = shown["picture"].get("config") or {}
            assert "deck" not in config and "seed" not in config
        # Built from the position after the move, the board would differ (or the move be illegal).
        after_state = replay.states[end]
        legal_after = [key(a) for a in replay.engine.legal_actions(after_state, d["seat"])]
        if key(d["best"]) in legal_after:
            wrong = frames.picture_of(
                replay.engine,
                better.after(replay.engine, after_state, d["seat"], d["best"]),
                d["seat"],
            )
            assert without_secrets(wrong) != better.board(replay, NOBODY, d["seq"], d["seat"])["picture"]


def test_a_real_review_shows_the_winning_lead_on_the_board() -> None:
    """The scripted blunder (tests/replay/test_review.py): 6-1 led where 5-5 wins at once. The
    better board has 5-5 alone in the middle and seat 0 on 10 points; the table really had 6-1."""
    game = dominoes_game((0, "6-1", "center"), (1, "4-1", "right"))
    reviewed(game)
    replay = frames.load(game.pk)
    [lead] = [d for d in review.timeline(game.pk) if d["label"]]
    shown = better.board(replay, NOBODY, lead["seq"], 1)
    picture = shown["picture"]
    assert (shown["best"]["tile"], shown["played"]["tile"]) == ("5-5", "6-1")
    text = json.dumps(picture["layout"])
    assert "5-5" in text and "6-1" not in text
    assert picture["scores"][0] == 10 * picture.get("score_scale", 1)  # half-points
    # Seat 1 looking sees its own hand, never seat 0's.
    assert picture == json.loads(json.dumps(imagined(replay, lead, 1)))


def test_the_graph_adds_up_each_players_points_lost_and_marks_the_flagged_moves() -> None:
    game = new_game("kazino", 2, options={"match": "single"}, seed=3)
    play(game)
    replay = frames.load(game.pk)
    decisions = fabricated(replay, most=20)
    done(game, decisions)
    drawn = graph.build(replay, review.timeline(game.pk), {0: "Ana", 1: "Ben"})
    assert drawn is not None
    rows = drawn["rows"]
    assert [r["point"].seq for r in rows] == [d["seq"] for d in decisions]
    for seat in (0, 1):
        mine = [r["point"] for r in rows if r["point"].seat == seat]
        running = 0.0
        for point in mine:
            running += point.loss
            assert point.total == pytest.approx(running)
        ys = [p.y for p in mine]
        assert ys == sorted(ys, reverse=True), "the line only climbs (y grows downwards)"
    xs = [r["point"].x for r in rows]
    assert xs == sorted(xs) and drawn["left"] <= xs[0] and xs[-1] <= drawn["right"]
    assert all(drawn["top"] <= r["point"].y <= drawn["bottom"] for r in rows)
    marks = drawn["marks"]
    assert [m["point"].seq for m in marks] == [d["seq"] for d in decisions if d["label"]]
    assert {m["point"].sign for m in marks} == {"?", "?!"}
    for mark in marks:
        # A mark links to the moment the move was made: the last event of its command.
        end = mark["point"].index
        assert replay.moments[end].command_end and replay.moments[end].seq == mark["point"].at
        assert replay.index_of(mark["point"].seq) <= end
    assert "Ana lost" in drawn["description"] and "Ben lost" in drawn["description"]


def test_the_replay_page_draws_the_graph_in_the_readers_language() -> None:
    game = new_game("kazino", 2, options={"match": "single"}, seed=4)
    play(game)
    replay = frames.load(game.pk)
    decisions = fabricated(replay, most=10)
    html = Client().get(f"/games/{game.pk}/replay/").content.decode()
    assert 'id="review-graph"' not in html, "no graph before the review is done"
    done(game, decisions)
    for language, title in (
        ("en", "Points lost over the game, player by player"),
        ("ht", None),
        ("tl", None),
    ):
        client = Client(headers={"accept-language": language})
        html = client.get(f"/games/{game.pk}/replay/").content.decode()
        svg = re.search(r"<svg viewBox.*?</svg>", html, re.S)
        assert svg, language
        with translation.override(language):
            expected = title or translation.gettext("Points lost over the game, player by player")
        if language != "en":
            assert expected != "Points lost over the game, player by player", f"{language} is translated"
        assert f'<title id="review-graph-title">{expected}</title>' in svg.group(0)
        assert '<desc id="review-graph-desc">' in svg.group(0)
        assert 'role="img" aria-labelledby="review-graph-title review-graph-desc"' in svg.group(0)
        # Coordinates are written for the SVG, not for the reader (ht writes a decimal comma).
        assert not re.search(r'(?:cx|cy|x|y|x1|x2|y1|y2)="[^"]*,', svg.group(0)), language
        assert svg.group(0).count('class="graph-mark"') == sum(1 for d in decisions if d["label"])
        # The same figures as a table: one row a decision, a link on each flagged one.
        assert html.count('class="graph-link"') == sum(1 for d in decisions if d["label"])
        body = client.get(f"/games/{game.pk}/replay/review/").json()
        assert 'id="review-graph"' in body["graph"] and expected in body["graph"]


def test_the_better_board_refuses_bad_input_with_a_clear_error() -> None:
    game = dominoes_game((0, "6-1", "center"), (1, "4-1", "right"))
    url = f"/games/{game.pk}/replay/better/"
    client = Client()
    assert client.get(url, {"at": "1", "as": "public"}).json()["error"]["code"] == "no_better_move"
    reviewed(game)
    [lead] = [d for d in review.timeline(game.pk) if d["label"]]
    ok = client.get(url, {"at": str(lead["seq"]), "as": "0"})
    assert ok.status_code == 200 and ok.json()["best"]["tile"] == "5-5"
    for params, code in (
        ({"at": "x", "as": "0"}, "bad_number"),
        ({"at": "-1", "as": "0"}, "bad_number"),
        ({"at": "9" * 40, "as": "0"}, "bad_number"),
        ({"as": "0"}, "bad_number"),
        ({"at": str(lead["seq"]), "as": "everyone"}, "bad_perspective"),
        ({"at": str(lead["seq"]), "as": "7"}, "no_such_seat"),
        ({"at": str(lead["seq"] + 1), "as": "0"}, "no_better_move"),
    ):
        response = client.get(url, params)
        assert response.status_code == 400, (params, response.status_code)
        assert response.json()["error"]["code"] == code, params
    assert client.post(url, {"at": str(lead["seq"]), "as": "0"}).status_code == 405


def test_a_game_still_being_played_has_no_better_board() -> None:
    game = new_game("kazino", 2, options={"match": "single"})
    play(game, moves=3)
    response = Client().get(f"/games/{game.pk}/replay/better/", {"at": "2", "as": "public"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "not_finished"
