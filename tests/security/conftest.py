"""The security suites' world (world.py), built once per class of tests that only read it or roll back
what they changed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import transaction

from .endpoints import ENDPOINTS
from .world import World, build


@pytest.fixture(scope="class")
def shared_world(django_db_setup, django_db_blocker) -> Iterator[World]:  # type: ignore[no-untyped-def]
    """One world for a class's tests, as Django's ``setUpTestData``: built in a transaction that is
    never committed, around which each test's own (pytest-django's, rolled back after the test) is a
    savepoint. Building it costs some 0.15 s, and the matrices ask for it two hundred times. A class,
    not a module: the transaction must be gone before any ``transaction=True`` test of the same module
    runs, and xdist may hand a worker one straight after the last test of the class.

    What a row makes on first use (a running cup, a club, a season, a wait) is made here, by asking every
    row for its URL, form and effect: made in a test, it would be rolled back with that test while the
    world still named it."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            world = build()
            for endpoint in ENDPOINTS:
                endpoint.url(world)
                for part in (endpoint.data, endpoint.effect):
                    if part is not None:
                        part(world)
            yield world
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
