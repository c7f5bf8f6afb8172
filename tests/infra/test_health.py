"""GET /healthz: 200 when the database and Redis answer, 503 naming what is down, and no secret."""

from __future__ import annotations

import os
import socket

import pytest
from django.db import OperationalError

from infra import health

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when this returns: nothing listens there


def get(client):  # type: ignore[no-untyped-def]
    return client.get("/healthz", HTTP_HOST="127.0.0.1")


def test_the_embedded_mode_is_healthy_with_its_database_alone(client, settings):
    settings.REDIS_URL = ""
    response = get(client)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] and body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["redis"]["status"].startswith("not used")
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.redis
def test_production_mode_checks_redis_too(client, settings):
    settings.REDIS_URL = os.environ["REDIS_URL"]
    body = get(client).json()
    assert body["checks"]["redis"] == {"ok": True, "status": "ok", "ms": body["checks"]["redis"]["ms"]}


def test_redis_down_is_503_without_the_url_or_its_password(client, settings):
    settings.REDIS_URL = f"redis://:hunter2-secret@127.0.0.1:{closed_port()}/0"
    response = get(client)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["checks"]["redis"]["ok"] is False and body["checks"]["redis"]["error"] == "ConnectionError"
    assert body["checks"]["database"]["ok"] is True
    assert "hunter2" not in response.content.decode() and "127.0.0.1" not in response.content.decode()


def test_database_down_is_503_without_the_driver_message(client, settings, monkeypatch):
    settings.REDIS_URL = ""

    class Unreachable:
        def cursor(self):  # type: ignore[no-untyped-def]
            raise OperationalError(
                'connection to server at "db.internal", user "owner" password=swordfish failed'
            )

    monkeypatch.setattr(health, "connection", Unreachable())
    response = get(client)
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == {
        "ok": False,
        "status": "down",
        "error": "OperationalError",
        "ms": response.json()["checks"]["database"]["ms"],
    }
    assert "swordfish" not in response.content.decode() and "db.internal" not in response.content.decode()


def test_only_get(client):
    assert client.post("/healthz", HTTP_HOST="127.0.0.1").status_code == 405


def test_behind_tls_a_load_balancer_may_still_ask_over_plain_http(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.REDIS_URL = ""
    assert get(client).status_code == 200
    assert client.get("/", HTTP_HOST="127.0.0.1").status_code == 301
