"""infra/deploy/postgres/app-role.sql: the app's role may INSERT and SELECT on the event table and
nothing else there, keeps its ordinary rights on the other tables, and runs the whole app.

Creating a role takes a PostgreSQL superuser: the test asks the local server's ``postgres`` account
(root runs ``runuser``, as bin/services does), so it runs where bin/services set PostgreSQL up.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from games.eventlog import store
from tests.games.factories import tiny_game

pytestmark = [pytest.mark.postgres, pytest.mark.processes, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SQL = ROOT / "infra" / "deploy" / "postgres" / "app-role.sql"
EVENT_RIGHTS = ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")


def as_superuser(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    s = connection.settings_dict
    return subprocess.run(
        [
            "runuser",
            "-u",
            "postgres",
            "--",
            "psql",
            "-p",
            str(s["PORT"] or 5432),
            "-d",
            s["NAME"],
            "-X",
            *args,
        ],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def app_role(transactional_db) -> Iterator[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """A fresh app role with the rights of app-role.sql on the test database; dropped afterwards."""
    host = connection.settings_dict["HOST"]
    if os.geteuid() != 0 or not shutil.which("runuser") or host not in ("127.0.0.1", "localhost", ""):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but no local PostgreSQL superuser (run as root after bin/services)")
        pytest.skip("needs root and the local PostgreSQL's postgres account to create a role")
    name, password = f"tablehall_app_{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    owner = connection.settings_dict["USER"]
    ran = as_superuser(
        "-v", f"app={name}", "-v", f"owner={owner}", "-v", f"password={password}", "-f", str(SQL)
    )  # fmt: skip
    try:
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "INSERT, SELECT" in ran.stdout
        # Idempotent: run again after a migration, it changes nothing and fails on nothing.
        again = as_superuser("-v", f"app={name}", "-v", f"owner={owner}", "-f", str(SQL))
        assert again.returncode == 0, again.stderr
        yield name, password
    finally:
        as_superuser(stdin=f'DROP OWNED BY "{name}"; DROP ROLE IF EXISTS "{name}";')


def url(role: tuple[str, str]) -> str:
    s = connection.settings_dict
    return f"postgres://{role[0]}:{role[1]}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def test_on_the_event_table_the_app_may_only_insert_and_select(app_role):
    with psycopg.connect(url(app_role), autocommit=True) as db:
        rights = {
            right: db.execute("SELECT has_table_privilege('games_event', %s)", (right,)).fetchone()[0]  # type: ignore[index]
            for right in EVENT_RIGHTS
        }
    assert rights == {right: right in ("SELECT", "INSERT") for right in EVENT_RIGHTS}


def test_rewriting_history_is_refused_even_with_the_test_flush_bypass(app_role):
    game = tiny_game()
    head = store.head(game.pk)[0]
    statements = [
        "UPDATE games_event SET actor = 'forged' WHERE game_id = %(game)s",
        "DELETE FROM games_event WHERE game_id = %(game)s",
        "TRUNCATE games_event",
    ]
    with psycopg.connect(url(app_role), autocommit=True) as db:
        # The triggers' bypass for the test flush: useless without the table rights.
        db.execute("SET tablehall.allow_event_rewrite = 'on'")
        for sql in statements:
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
                db.execute(sql, {"game": game.pk})
        # Its ordinary rights elsewhere: a game row is updated as any Django app would.
        assert db.execute("UPDATE games_game SET status = status WHERE id = %s", (game.pk,)).rowcount == 1
    assert store.head(game.pk)[0] == head and store.verify_chain(game.pk, store.load(game.pk)) is None


def test_the_app_plays_and_verifies_a_game_as_that_role(app_role):
    env = {**os.environ, "DATABASE_URL": url(app_role)}
    env.pop("REDIS_URL", None)  # nothing to play the computers but the command itself
    for args in (
        ["play", "dominoes", "--seats", "random,random", "--option", "target=10", "--seed", "5"],
        ["verify_events"],
    ):
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stdout + result.stderr
    assert "OK: 1 games" in result.stdout
