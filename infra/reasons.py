"""Reason phrases Daphne's HTTP layer (twisted.web) does not know: it wrote ``429 Unknown Status`` on
every rate-limited answer (#37). Each status this site sends gets its standard phrase (RFC 6585, RFC
9110) before Daphne serves a request; ``http.HTTPStatus`` is the source, so nothing is spelled here."""

from __future__ import annotations

from http import HTTPStatus

#: The statuses the site answers with that twisted may be missing.
SENT = (HTTPStatus.TOO_MANY_REQUESTS, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, HTTPStatus.SERVICE_UNAVAILABLE)


def name_statuses() -> None:
    try:
        from twisted.web import http
    except ImportError:  # not under Daphne (gunicorn, the tests' clients): nothing to name
        return
    for status in SENT:
        http.RESPONSES.setdefault(int(status), status.phrase.encode("ascii"))
