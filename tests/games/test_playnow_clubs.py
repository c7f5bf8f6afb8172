"""Play now for a club (#33, club-only tables): only members of the club may ask; its members are
seated together at a club-only table, never with a player who asked for a public table; the computer
fallback's table is the club's too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.access import playnow
from games.background import jobs
from games.errors import ServiceError
from games.models import Game, Seek
from tournaments import clubs

pytestmark = pytest.mark.django_db

TINY = {"players": 2, "goal": 50}


def _users(*names: str) -> list:
    return [get_user_model().objects.create_user(n) for n in names]


def test_members_of_a_club_are_seated_together_at_its_table_and_nobody_else_with_them():
    org, ana, ben, cy = _users("org", "ana", "ben", "cy")
    club = clubs.create("Tuesday Club", "tuesday", by=org)
    for user in (ana, ben):
        clubs.join(club.join_code, user)
    with pytest.raises(ServiceError) as refused:
        playnow.press(cy, "tiny", TINY, "casual", club_id=club.pk)
    assert refused.value.code == "not_a_member" and not Seek.objects.exists()
    assert playnow.key_of("tiny", TINY, "casual", club.pk) != playnow.key_of("tiny", TINY, "casual")
    waiting = playnow.press(ana, "tiny", TINY, "casual", club_id=club.pk)
    assert waiting.game is None and waiting.club_id == club.pk
    public = playnow.press(ben, "tiny", TINY, "casual")  # the same game, for everyone: another wait
    assert public.game is None
    seated = playnow.press(ben, "tiny", TINY, "casual", club_id=club.pk)
    assert seated.game is not None and seated.game.club_id == club.pk
    waiting.refresh_from_db()
    assert waiting.game_id == seated.game_id


def test_the_computer_fallback_seats_a_member_at_a_table_of_the_club(monkeypatch):
    org, ana = _users("org", "ana")
    club = clubs.create("Tuesday Club", "tuesday", by=org)
    clubs.join(club.join_code, ana)
    monkeypatch.setattr(jobs, "enqueue", lambda *args, **kwargs: None)
    start = timezone.now()
    seek = playnow.press(ana, "tiny", TINY, "casual", fallback_minutes=1, club_id=club.pk, now=start)
    playnow.state(seek.pk, ana, now=start + timedelta(seconds=30))
    assert playnow.fall_back(seek.pk, now=start + timedelta(minutes=1)) == "seated"
    assert Game.objects.get().club_id == club.pk
