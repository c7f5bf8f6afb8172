"""The hostile inputs of a table command, shared by the HTTP and the socket fuzzers.

A probe is one input: its kind, the message (the fields a command carries), the seat whose
credentials send it, and the answers it may get. Kinds:

- ``valid``: a legal action from a seat to act, a new command id, the current seq (stored);
- ``stale_seq``: the same with another seq (``stale_seq``);
- ``bad_seq``: a seq that is no non-negative integer (``bad_seq``);
- ``bad_command_id``: an id that is missing, too long, of the wrong type or characters, or one of the
  system's own ids (``bad_command_id``);
- ``bad_action``: a legal action with one thing wrong (any code of the engine, or stored if the
  engine finds it legal all the same);
- ``not_your_turn``: a legal action of a seat that is not to act, sent by that seat;
- ``replay_same``: the last stored command sent again as it was (the first ack again, ``duplicate``);
- ``replay_different``: its command id with another action (``command_reused``, or an input error);
- ``envelope``: every field drawn from junk and near-valid values (anything but a server error).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from . import strategies as fz
from .arena import ANY_ERROR, Arena

KINDS = [
    "valid",
    "stale_seq",
    "bad_seq",
    "bad_command_id",
    "bad_action",
    "not_your_turn",
    "replay_same",
    "replay_different",
    "envelope",
]
_ids = itertools.count()


@dataclass
class Probe:
    kind: str
    seat: int  # whose credentials send it
    fields: dict[str, Any]  # action / command_id / expected_seq (and anything else)
    expect: set[str] | frozenset[str] | None

    def command(self) -> tuple[str, int, Any]:
        return (self.fields.get("command_id"), self.seat, self.fields)  # type: ignore[return-value]


def fresh_id(data: st.DataObject) -> str:
    return f"{data.draw(fz.fresh_ids)}-{next(_ids)}"


def draw(arena: Arena, data: st.DataObject) -> Probe:
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    playable = arena.playable()
    seq = arena.current()[0]
    seat, action = fz.pick(data, playable, "legal")
    fields: dict[str, Any] = {"action": action, "command_id": fresh_id(data), "expected_seq": seq}
    expect: set[str] | frozenset[str] | None = None
    if kind == "valid":
        expect = {"ack"}
    elif kind == "stale_seq":
        offset = data.draw(st.sampled_from([-5, -3, -2, -1, 1, 2, 7]))
        fields["expected_seq"] = data.draw(st.sampled_from([max(0, seq + offset), 2**31, 2**63, 10**30]))
        # Behind the table: stale (the client saw an older table); ahead of it: no table it could have
        # seen, a client's mistake (bad_seq, 400).
        expect = {"stale_seq"} if fields["expected_seq"] < seq else {"bad_seq"}
    elif kind == "bad_seq":
        fields["expected_seq"] = data.draw(fz.bad_seqs)
        expect = {"bad_seq"}
    elif kind == "bad_command_id":
        fields["command_id"] = data.draw(fz.bad_command_ids)
        expect = {"bad_command_id"}
    elif kind == "bad_action":
        fields["action"] = fz.mutate(data, action)
    elif kind == "not_your_turn":
        waiting = [s for s in arena.tokens if s not in {p[0] for p in playable}]
        chosen = fz.pick(data, waiting or [None], "waiting seat")
        if chosen is not None:
            seat = chosen
            # Engines may say why more precisely (Skyjo: "already_opened" in the opening).
            expect = {"not_your_turn"} if arena.engine == "tiny" else ANY_ERROR
    elif kind in ("replay_same", "replay_different"):
        # Every draw is made whatever the game holds: Hypothesis wants each draw to depend only on
        # the ones before it.
        mutated = data.draw(st.booleans(), label="mutated or another legal action")
        other = fz.mutate(data, action) if mutated else fz.pick(data, [a for _s, a in playable], "other")
        if (used := arena.used_command()) is not None:
            seat, fields = used.seat, dict(used.action)
            if kind == "replay_same":
                expect = {"ack"}
            else:
                fields["action"] = other
    elif kind == "envelope":
        fields = {}
        choices = {
            "action": lambda: [action, fz.mutate(data, action), data.draw(fz.json_values)],
            "command_id": lambda: [fresh_id(data), data.draw(fz.bad_command_ids)],
            "expected_seq": lambda: [seq, data.draw(fz.numbers), data.draw(fz.bad_seqs)],
            "seat": lambda: [seat, data.draw(fz.json_values)],
            fz.NASTY_STRINGS[10]: lambda: [data.draw(fz.json_values)],
        }
        for key, values in choices.items():
            if data.draw(st.booleans(), label=f"has {key}"):
                fields[key] = fz.pick(data, values(), key)
    return Probe(kind, seat, fields, expect)
