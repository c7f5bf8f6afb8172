"""How many inputs each fuzz target sends.

``FUZZ_EXAMPLES`` (default 300) is the count of the standard target; each target sends its weight
times that. The normal test run takes well under a minute; ``tests/fuzz/run_100k.py`` sets
``FUZZ_EXAMPLES`` so that all targets together send 100,000 inputs.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

# Each target and its share. Real engines get less than the tiny one: slower, but they are where
# input handling differs (every engine decides its own actions).
TARGETS: dict[str, float] = {
    "http-actions-tiny": 1.0,
    "http-actions-skyjo": 0.25,
    "http-actions-dominoes": 0.25,
    "http-actions-kazino": 0.25,
    "http-actions-pitch": 0.25,
    "http-pages": 0.25,  # the slowest: forms that create tournaments
    "http-invites": 0.25,
    "socket-table-tiny": 1.0,
    "socket-table-skyjo": 0.25,
    "socket-table-dominoes": 0.25,
    "socket-table-kazino": 0.25,
    "socket-table-pitch": 0.25,
    # Tables that count: every table command from a seat refused (takebacks, pauses), moves as usual.
    "socket-table-tiny-rated": 0.25,
    "socket-table-tiny-tournament": 0.25,
    "socket-replay": 0.5,
    "socket-tournament": 0.25,
    "socket-paths": 0.25,  # handshakes: ids past 64 bits, words, unknown paths
    "socket-handshakes": 0.25,
}


def base_count() -> int:
    return max(1, int(os.environ.get("FUZZ_EXAMPLES", "300")))


def examples(target: str) -> int:
    return max(1, round(base_count() * TARGETS[target]))


def fuzz_settings(target: str) -> settings:
    """Hypothesis settings for one target: its count, no deadline (a database is involved), no
    example database (the arena's state is not part of an example, so replays would mislead)."""
    return settings(
        max_examples=examples(target),
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
