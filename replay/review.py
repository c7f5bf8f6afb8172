"""Engine review of a finished game: every decision scored by a computer player from its seat's view.

The reviewer is the Expert (``settings.REVIEW_LEVEL``, default ``expert``; ``strong`` for the
strong bot, as before). For each command a seat chose among several legal actions, it values every one of
them from ``engine.view(state, seat)`` and the legal actions alone — exactly what it would have
seen playing that seat — with a search bounded by a sample count (never the clock) and a random
stream seeded by the decision, so a review is reproducible. The action played is recognised by
the events it makes; its loss is what it costs against the best option, in the game's points.
Where the endgame can be known (``replay.exact``: every deal consistent with the view, each played
out with open hands), the values are exact and no sampling is done.
Units, thresholds and settings per engine: docs/review.md.
"""

from __future__ import annotations

import json
import logging
import math
import random
import statistics
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any, Protocol

from django.conf import settings as django_settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games import bots, engines
from games.background import jobs
from games.engines.base import Action, Engine, Event, View, _
from games.errors import ServiceError
from games.eventlog import queries
from games.eventlog.tables import get_game
from replay import exact, frames
from replay.models import Review

log = logging.getLogger(__name__)

#: Bumped when the way figures are computed changes (stored with every review's settings).
REVIEW_VERSION = 4  # 2: the Expert reviews (settings["level"]); 3: exact endgames (settings["exact"]);
# 4: Skyjo's last turn too

#: The computer levels that may review, the default first (``settings.REVIEW_LEVEL`` chooses).
REVIEW_LEVELS = ("expert", "strong")

INACCURACY, MISTAKE = "inaccuracy", "mistake"
LABELS = {INACCURACY: gettext_lazy("inaccuracy"), MISTAKE: gettext_lazy("mistake")}

#: Per engine (docs/review.md), as its bot module declares them (``REVIEW`` in games/bots/<game>.py):
#: ``samples``, ``measure``, ``batches``, the thresholds and ``win``.
#: ``settings.REVIEW = {"skyjo": {"measure": 128}}`` overrides any of them.
DEFAULTS: dict[str, dict[str, float]] = {
    name: found for name in engines.names() if (found := bots.review_settings(name)) is not None
}
#: A review queued or running this long was lost (a worker died, a broker restarted): ask again.
STALE = timedelta(minutes=15)


class Scorer(Protocol):
    def scores(
        self, view: View, legal_actions: list[Action], rng: random.Random
    ) -> list[tuple[float, Action]]: ...


def settings_for(engine_name: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The defaults, then ``settings.REVIEW[engine]``, then ``overrides``; checked. ``level`` (which
    computer player reviews) comes from ``settings.REVIEW_LEVEL`` unless ``overrides`` names one."""
    if engine_name not in DEFAULTS:
        raise ServiceError("not_reviewable", _("Games of this kind cannot be reviewed."))
    configured = getattr(django_settings, "REVIEW", {}).get(engine_name, {})
    level = getattr(django_settings, "REVIEW_LEVEL", REVIEW_LEVELS[0])
    merged: dict[str, Any] = {
        **DEFAULTS[engine_name],
        "level": level,
        "exact": exact.MAX_DEALS,
        **configured,
        **(overrides or {}),
    }
    for name in ("samples", "measure", "batches", "exact"):
        merged[name] = int(merged[name])
    if (
        min(merged["samples"], merged["measure"]) < 1
        or merged["batches"] < MIN_BATCHES
        or merged["exact"] < 0
        or not 0 <= merged["inaccuracy"] <= merged["mistake"]
        or merged["win"] < 0
        or merged["level"] not in REVIEW_LEVELS
    ):
        raise ValueError(f"bad review settings for {engine_name}: {merged}")
    merged["version"] = REVIEW_VERSION
    return merged


@dataclass(frozen=True)
class Referee:
    """The reviewing bot twice, searching by sample count whatever the clock.

    ``choose`` finds the best option among all the legal ones; ``measure`` values that option and
    the move played on fresh samples. Picking the highest of many noisy means would inflate the
    loss of every move among many options; measured apart, the loss is a fair estimate.
    ``scale`` turns the bot's values into points.
    """

    engine: Engine
    choose: Scorer
    measure: Scorer
    scale: float
    settings: Mapping[str, Any]


def referee(engine: Engine, settings: Mapping[str, Any]) -> Referee:
    choose, scale = _bot(engine.NAME, settings["samples"], settings, settle=True)
    measure, _scale = _bot(engine.NAME, settings["measure"], settings, settle=False)
    return Referee(engine, choose, measure, scale, settings)


def _bot(
    engine_name: str, samples: int, settings: Mapping[str, Any], *, settle: bool
) -> tuple[Scorer, float]:
    """The reviewing level's bot bounded by ``samples`` alone, and its unit in points (its bot
    module's ``review_bot``: the Expert's values are the strong bot's, searched further). With
    ``settle``, the search may stop once one option clearly leads (enough to find the best); without,
    every sample is played (a loss measured on fewer would be noisier)."""
    found: tuple[Scorer, float] = bots.review_bot(
        engine_name, samples, settings["win"], settle=settle, level=settings["level"]
    )
    return found


# --- One decision ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    seq: int  # the first event of the command (the replay's link to the move)
    seat: int
    hand: int
    options: int
    played: Action
    best: Action
    played_value: float  # points, as the bot values them from the seat's view
    best_value: float
    loss: float
    label: str | None


def _json(events: list[Event]) -> str:
    return json.dumps(events, sort_keys=True)


def played_action(engine: Engine, state: Any, seat: int, legal: list[Action], logged: list[Event]) -> Action:
    """The legal action whose events are the ones logged (the first match)."""
    wanted = _json(logged)
    for action in legal:
        if _json(engine.decide(state, seat, action)) == wanted:
            return action
    raise ReviewError("the log does not match the engine's moves")


def label(loss: float, settings: Mapping[str, Any]) -> str | None:
    """The label of a loss in points: a mistake, an inaccuracy, or none."""
    if loss >= settings["mistake"]:
        return MISTAKE
    if loss >= settings["inaccuracy"]:
        return INACCURACY
    return None


def is_decision(engine: Engine, state: Any, seat: int, legal: list[Action]) -> bool:
    """A real choice: several legal actions, and not of a kind whose options the engine calls alike
    (``ALIKE_ACTIONS``: Skyjo's opening reveals, where every hidden card is alike)."""
    if len(legal) < 2 or seat not in engine.to_act(state):
        return False
    return legal[0]["type"] not in getattr(engine, "ALIKE_ACTIONS", frozenset())


def evaluate(
    ref: Referee, state: Any, seat: int, logged: list[Event], seed: str, *, seq: int = 0, hand: int = 1
) -> Decision | None:
    """Score one decision from the seat's view; None when it was no choice (or the bot had no answer)."""
    engine = ref.engine
    legal = engine.legal_actions(state, seat)
    if not is_decision(engine, state, seat, legal):
        return None
    played = played_action(engine, state, seat, legal, logged)
    view = engine.view(state, seat)
    known = known_values(ref, view, legal)
    if known is not None:
        # Exact values: no sampling, so no measuring apart; an exactly-best move played loses nothing
        # (the first listed of the best is named, as ``legal_actions`` orders them).
        best_value, best = max(known.values(), key=lambda pair: pair[0])
        played_value = known[_key(played)][0]
    else:
        ranked = ref.choose.scores(view, legal, random.Random(f"{seed}:choose"))
        if not ranked:
            return None
        best = ranked[0][1]
        if best == played:
            best_value = played_value = ranked[0][0] * ref.scale
        else:
            measured = measure(ref, view, best, played, seed)
            if measured is None:
                return None
            best_value, played_value = measured
    # Labelled as shown: a loss of 0.4996 is shown as 0.5, so it is labelled as 0.5 is.
    loss = round(max(0.0, best_value - played_value), 2)
    # An exact value names the exactly best move even when the played one is worse by less than the
    # 0.01 shown (a Pitch mean over 500 deals can differ by 0.002): it is not flagged, but not best.
    named = loss > 0 or (known is not None and best_value - played_value > EXACT_TIE)
    return Decision(
        seq=seq,
        seat=seat,
        hand=hand,
        options=len(legal),
        played=played,
        best=best if named else played,
        played_value=round(played_value, 2),
        best_value=round(max(best_value, played_value), 2),
        loss=loss,
        label=label(loss, ref.settings),
    )


def known_values(ref: Referee, view: View, legal: list[Action]) -> dict[str, tuple[float, Action]] | None:
    """Each legal action's exact value (points) where the endgame can be solved from the view
    (``replay.exact``: every consistent deal, at most ``settings["exact"]`` of them); else None."""
    limit = int(ref.settings.get("exact", 0))  # settings made before exact endgames have none
    if not limit:
        return None
    found = exact.values(ref.engine.NAME, view, legal, ref.settings["win"], limit)
    return None if found is None else {_key(action): (value, action) for value, action in found}


#: Exact values closer than this are equal (float sums over many deals).
EXACT_TIE = 1e-9

#: Batches measured before the spread of their differences may end the measure.
MIN_BATCHES = 3
#: Standard errors that must separate the measured loss from each threshold to stop early.
CLEAR = 2.5


def measure(ref: Referee, view: View, best: Action, played: Action, seed: str) -> tuple[float, float] | None:
    """(best value, played value) in points: the mean over batches of fresh samples.

    Batches go on, up to ``batches``, while the spread of the batches' differences leaves the
    label in doubt (the loss within ``CLEAR`` standard errors of a threshold): a clear blunder or
    a sound move costs a few batches, a close call gets every sample.
    """
    bests: list[float] = []
    diffs: list[float] = []
    key_best, key_played = _key(best), _key(played)
    for batch in range(ref.settings["batches"]):
        measured = ref.measure.scores(view, [best, played], random.Random(f"{seed}:measure:{batch}"))
        if not measured:
            return None
        values = {_key(action): value * ref.scale for value, action in measured}
        bests.append(values[key_best])
        diffs.append(values[key_best] - values[key_played])
        if len(diffs) >= MIN_BATCHES and _clear(diffs, ref.settings):
            break
    loss = statistics.fmean(diffs)
    return statistics.fmean(bests), statistics.fmean(bests) - loss


def _clear(diffs: list[float], settings: Mapping[str, Any]) -> bool:
    loss = statistics.fmean(diffs)
    error = statistics.stdev(diffs) / math.sqrt(len(diffs))
    return all(abs(loss - settings[name]) >= CLEAR * error for name in ("inaccuracy", "mistake"))


def _key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)


# --- A whole game ------------------------------------------------------------------------------


class ReviewError(Exception):
    """A review that cannot be made; the text is shown to players, so it never names a card."""


def _seat_of(actor: str) -> int | None:
    kind, _sep, number = actor.partition(":")
    return int(number) if kind in ("seat", "bot") and number.isascii() and number.isdigit() else None


def commands(replay: frames.Replay) -> list[tuple[int, int]]:
    """(first index, last index) of every command after the opening, in replay order."""
    out: list[tuple[int, int]] = []
    start = 0
    for moment in replay.moments:
        if moment.command_end:
            out.append((start, moment.index))
            start = moment.index + 1
    return [(first, last) for first, last in out if first > 0]


Progress = Callable[[int, int], None]  # (commands reviewed so far, commands in all)


def review_replay(
    replay: frames.Replay, settings: Mapping[str, Any], progress: Progress | None = None
) -> list[Decision]:
    """Every decision of a game, scored from its seat's view."""
    ref = referee(replay.engine, settings)
    decisions: list[Decision] = []
    steps = commands(replay)
    for done, (first, last) in enumerate(steps):
        if progress is not None:
            progress(done, len(steps))
        moment = replay.moments[first]
        seat = _seat_of(moment.actor)
        if seat is None:
            continue
        decision = evaluate(
            ref,
            replay.states[first - 1],
            seat,
            replay.events[first : last + 1],
            f"review:{moment.seq}:{seat}",
            seq=moment.seq,
            hand=replay.moments[first - 1].hand,
        )
        if decision is not None:
            decisions.append(decision)
    return decisions


def summarize(decisions: list[Decision], players: int) -> list[dict[str, Any]]:
    """Per seat: decisions, inaccuracies, mistakes, mean and total loss (points)."""
    out = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        total = sum(d.loss for d in mine)
        out.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "inaccuracies": sum(d.label == INACCURACY for d in mine),
                "mistakes": sum(d.label == MISTAKE for d in mine),
                "mean_loss": round(total / len(mine), 2) if mine else 0.0,
                "total_loss": round(total, 2),
            }
        )
    return out


# --- Requesting and running ----------------------------------------------------------------------


def request(game_id: int, *, force: bool = False, queue: bool = True) -> Review:
    """Queue a review of a finished game and dispatch it after commit; asking twice changes nothing.

    Unless the last one failed, was lost (``STALE``), the engine has a new version since, or
    ``force``, a review already queued, running or done is returned as it is. ``queue=False``
    leaves the running to the caller (``run``: the review_game command).
    """
    game = get_game(game_id)
    settings_for(game.engine)  # refuses a kind of game that has no review
    if not frames.load(game.pk).finished:
        raise ServiceError("not_finished", _("Only a finished game can be reviewed."))
    version = engines.get(game.engine).VERSION
    with transaction.atomic():
        review, created = Review.objects.select_for_update().get_or_create(
            game=game, defaults={"engine_version": version}
        )
        lost = review.status != Review.Status.DONE and review.requested_at < timezone.now() - STALE
        current = review.status != Review.Status.FAILED and review.engine_version == version and not lost
        if not created and current and not force:
            return review
        if not created:
            review.status = Review.Status.QUEUED
            review.engine_version = version
            review.decisions, review.summary, review.settings = [], {}, {}
            review.error, review.finished_at = "", None
            review.requested_at = timezone.now()
            review.save()
        if queue:
            transaction.on_commit(lambda: dispatch(game.pk))
    return review


REVIEW_GAME = "replay.tasks.review_game"


def dispatch(game_id: int) -> None:
    """A Celery task in production; in embedded mode a thread of its own (the lane "reviews"), so
    computer turns never wait behind a review."""
    jobs.enqueue(REVIEW_GAME, game_id)


def run(game_id: int, overrides: Mapping[str, float] | None = None, progress: Progress | None = None) -> str:
    """Make the requested review of ``game_id``: running, then done or failed. Returns the status."""
    review = Review.objects.filter(game_id=game_id).select_related("game").first()
    if review is None or review.status == Review.Status.DONE:
        return "none" if review is None else review.status
    Review.objects.filter(pk=review.pk).update(status=Review.Status.RUNNING, error="")
    try:
        replay = frames.load(game_id)
        if not replay.finished:
            raise ReviewError("the game is not finished")
        settings = settings_for(replay.engine.NAME, overrides)
        decisions = review_replay(replay, settings, progress)
        summary = {"seats": summarize(decisions, replay.players), "unit": "points"}
    except Exception as exc:
        # The exception's text may quote a card: only its kind is kept and logged.
        error = str(exc) if isinstance(exc, ReviewError) else f"internal error ({type(exc).__name__})"
        log.error("review of game %s failed: %s", game_id, error)
        Review.objects.filter(pk=review.pk).update(
            status=Review.Status.FAILED, error=error[:200], finished_at=timezone.now()
        )
        return Review.Status.FAILED
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.DONE,
        settings=settings,
        decisions=[asdict(d) for d in decisions],
        summary=summary,
        engine_version=replay.engine.VERSION,
        finished_at=timezone.now(),
    )
    return Review.Status.DONE


# --- Reading ---------------------------------------------------------------------------------------


def _done(game_id: int) -> Review | None:
    return Review.objects.filter(game_id=game_id, status=Review.Status.DONE).first()


def timeline(game_id: int, *, flagged_only: bool = False) -> list[dict[str, Any]]:
    """The reviewed decisions in replay order: {seq, seat, label, text, loss, best, played}."""
    review = _done(game_id)
    if review is None:
        return []
    out = []
    for d in review.decisions:
        if flagged_only and d["label"] is None:
            continue
        text = str(LABELS[d["label"]]) if d["label"] else ""
        keys = ("seq", "seat", "label", "loss", "best", "played")
        out.append({**{k: d[k] for k in keys}, "text": text})
    return out


SUMMARY_LINE = gettext_lazy(
    "Decisions: {decisions} · inaccuracies: {inaccuracies} · mistakes: {mistakes} · "
    "points lost per decision: {mean_loss}"
)


def summary(game_id: int) -> dict[str, Any] | None:
    """The review's state and, once done, each seat's figures with its name and a sentence."""
    review = Review.objects.filter(game_id=game_id).first()
    if review is None:
        return None
    out: dict[str, Any] = {"status": review.status, "error": review.error, "seats": []}
    if review.status != Review.Status.DONE:
        return out
    names = {s["number"]: s["display_name"] for s in queries.seating(game_id)["seats"]}
    out["settings"] = review.settings
    out["seats"] = [
        {**row, "name": names.get(row["seat"], ""), "text": str(SUMMARY_LINE).format(**row)}
        for row in review.summary.get("seats", [])
    ]
    return out
