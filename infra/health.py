"""``GET /healthz``: can this process reach its database and its Redis? 200 when both answer, else 503.

The body names each check and how long it took; a failure says only the kind of error, never a
URL, a host or a password. Load balancers and the compose file's health checks call it:

    python -m infra.health [URL]     # exit 0 when the endpoint says ok (container health checks)
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

TIMEOUT = 2.0


def database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def redis_layer() -> str:
    """Redis carries the channel layer and the Celery queue; the embedded mode has neither."""
    if not settings.REDIS_URL:
        return "not used (in-memory channel layer)"
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT)
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


CHECKS: dict[str, Callable[[], str]] = {"database": database, "redis": redis_layer}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    results: dict[str, dict[str, object]] = {}
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            results[name] = {"ok": True, "status": check()}
        except Exception as exc:  # any failure is "down"; the class name is enough to act on
            results[name] = {"ok": False, "status": "down", "error": type(exc).__name__}
        results[name]["ms"] = round((time.perf_counter() - started) * 1000, 1)
    healthy = all(r["ok"] for r in results.values())
    return JsonResponse(
        {"status": "ok" if healthy else "down", "checks": results}, status=200 if healthy else 503
    )


def main(argv: list[str]) -> int:
    """Ask a running web process; the Host is the first of ALLOWED_HOSTS, as a proxy would send."""
    import urllib.error
    import urllib.request

    url = argv[1] if len(argv) > 1 else f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz"
    host = os.environ.get("ALLOWED_HOSTS", "127.0.0.1").split(",")[0].strip().lstrip(".")
    request = urllib.request.Request(url, headers={"Host": host if host != "*" else "127.0.0.1"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 - our own URL
            print(response.read().decode())
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode(), file=sys.stderr)
    except OSError as exc:
        print(f"no answer: {type(exc).__name__}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
