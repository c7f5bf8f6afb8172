"""A fair-deal verifier written from docs/fair-deals.md alone: the standard library only, nothing of
the project imported. It checks an "all" hand history (GET /api/v1/tables/ID/history?perspective=all):
every played hand's leaf, recomputed from what the log shows and the reveal, is the committed one, and
the root is the hash of the leaves.

Only a game without table events that change what counts (no undo, restart or new game) is read here.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

KAZINO_ORDER = {
    r + s: i
    for i, (r, s) in enumerate(
        (r, s) for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] for s in "SHDC"
    )
}


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def kazino_open(start: dict[str, Any]) -> dict[str, Any]:
    deck, dealer = start["deck"], start["dealer"]
    deals, at = [], 4
    for number in range(6):
        hands: list[list[str]] = [[], []]
        hands[1 - dealer] = sorted(deck[at : at + 4], key=KAZINO_ORDER.__getitem__)
        hands[dealer] = sorted(deck[at + 4 : at + 8], key=KAZINO_ORDER.__getitem__)
        table = sorted(deck[:4], key=KAZINO_ORDER.__getitem__) if number == 0 else []
        deals.append({"table": table, "hands": hands})
        at += 8
    return {"dealer": dealer, "deals": deals}


def deals(engine: str, events: list[dict[str, Any]]) -> dict[int, tuple[Any, list[Any]]]:
    """hand -> (open, stock cards drawn), as the table in docs/fair-deals.md says."""
    out: dict[int, tuple[Any, list[Any]]] = {}
    drawn: list[Any] | None = None
    for e in events:
        kind, data = e["type"], e["data"]
        if engine == "pitch" and kind == "deal":
            out[data["hand"]] = ({"dealer": data["dealer"], "hands": data["hands"]}, [])
        elif engine == "kazino" and kind == "game_start":
            out[data["game"]] = (kazino_open(data), [])
        elif engine == "dominoes" and kind == "deal":
            drawn = []
            out[data["hand"]] = ({"hands": data["hands"]}, drawn)
        elif engine == "dominoes" and kind == "draw" and drawn is not None:
            drawn.append(data["tile"])
        elif engine == "skyjo" and kind == "dealt":
            drawn = []
            out[data["hand"]] = ({"grids": data["grids"], "discard": data["discard"]}, drawn)
        elif engine == "skyjo" and kind == "reshuffled":
            drawn = None
        elif engine == "skyjo" and kind == "drew" and drawn is not None:
            drawn.append(data["card"])
    return out


def leaf(entry: dict[str, Any], open_part: Any, drawn: list[Any]) -> bytes:
    keys: list[bytes] = []
    if drawn:
        keys = [bytes.fromhex(entry["key"])]
        while len(keys) < len(drawn):
            keys.append(sha(keys[-1]))
        keys.reverse()  # s[0] … s[k-1]
    digest = bytes.fromhex(entry["rest"])  # d[k]
    for key, card in zip(reversed(keys), reversed(drawn), strict=True):
        digest = sha(key, canonical(card), digest)
    body = {"hand": entry["hand"], "open": open_part, "stock": digest.hex()}
    return sha(bytes.fromhex(entry["salt"]), canonical(body))


def verify(history: dict[str, Any]) -> int:
    """The number of hands checked; AssertionError naming what does not hold."""
    engine, events = history["game"]["engine"], history["events"]
    commits = {e["seq"]: e["data"] for e in events if e["type"] == "fair.commit"}
    reveals = [e["data"] for e in events if e["type"] == "fair.reveal"]
    assert commits and reveals, "no commitment or no reveal"
    played = deals(engine, events)
    checked = 0
    for reveal in reveals:
        commit = commits[reveal["commit"]]
        first, last = commit["hands"]
        assert sha(*(bytes.fromhex(x) for x in commit["leaves"])).hex() == commit["root"], "root"
        for entry in reveal["hands"]:
            hand = entry["hand"]
            open_part, drawn = played[hand]
            assert entry["drawn"] == len(drawn), f"hand {hand}: drawn"
            assert leaf(entry, open_part, drawn).hex() == commit["leaves"][hand - first], f"hand {hand}: leaf"
            assert first <= hand <= last
            checked += 1
    assert checked == len(played), "a played hand was not opened"
    return checked
