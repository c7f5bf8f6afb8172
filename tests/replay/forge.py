"""Editing an exported "all" file the way a careful forger would: content changed, chain recomputed."""

from __future__ import annotations

from typing import Any

from games.eventlog import store


def rehash(doc: dict[str, Any]) -> None:
    previous = store.GENESIS
    for e in doc["events"]:
        e["hash"] = previous = store.chain_hash(
            previous, e["seq"], e["type"], e["data"], e["actor"], e["command_id"], e["schema_version"]
        )
    doc["head"] = previous
