"""Production settings: `check --deploy` passes with infra/deploy's environment, and logs can be JSON."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "infra" / "deploy" / "tablehall.env.example"
pytestmark = pytest.mark.processes  # manage.py in processes of their own


def production_env() -> dict[str, str]:
    """The example environment of infra/deploy, with a real secret key, on top of a bare one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ALLOWED_HOSTS", "CSRF_"))}
    for line in EXAMPLE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, value = line.split("=", 1)
            env[key] = value
    env["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    env["DATABASE_URL"] = "postgres://tablehall_app:pw@127.0.0.1:5432/tablehall"  # not connected to
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_passes_with_the_production_environment():
    result = manage(production_env(), "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_over_plain_http():
    # The defaults keep bin/run on plain http, so they are not a production configuration.
    env = {**production_env(), "DJANGO_HTTPS": "0"}
    result = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = production_env()
    del env["DJANGO_SECRET_KEY"]
    result = manage(env, "check")
    assert result.returncode != 0 and "DJANGO_SECRET_KEY must be set" in result.stderr


LOG_ONE_LINE = "import django, logging; django.setup(); logging.getLogger('games.commands.runner').warning('game %s moved', 7)"


def test_log_format_json_writes_one_json_object_per_line():
    env = {**production_env(), "LOG_FORMAT": "json"}
    result = subprocess.run(
        [sys.executable, "-c", LOG_ONE_LINE],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "infra.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stderr.strip().splitlines()[-1])
    assert record["message"] == "game 7 moved"
    assert record["level"] == "WARNING" and record["logger"] == "games.commands.runner"
    assert record["pid"] > 0 and record["time"]


def test_the_default_log_format_is_plain_text():
    env = {**production_env(), "LOG_FORMAT": "plain", "DJANGO_SETTINGS_MODULE": "infra.settings"}
    result = subprocess.run(
        [sys.executable, "-c", LOG_ONE_LINE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    line = result.stderr.strip().splitlines()[-1]
    assert line.endswith("WARNING games.commands.runner game 7 moved")
