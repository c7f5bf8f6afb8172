"""What the fuzzer sent and what came back, for the report (tests/bench/results/fuzz.txt)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Channel:
    sent: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)  # error codes, "ack", "ack (duplicate)"…
    kinds: Counter[str] = field(default_factory=Counter)  # what kind of input was sent
    server_errors: int = 0
    stored: int = 0  # inputs that were valid actions and stored their events
    events_stored: int = 0
    seconds: float = 0.0


@dataclass
class Tally:
    channels: dict[str, Channel] = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)
    verified_games: int = 0
    lost_or_doubled: int = 0
    unexpected_changes: int = 0  # a refused or retried input that changed a game

    def channel(self, name: str) -> Channel:
        return self.channels.setdefault(name, Channel())

    def report(self) -> str:
        total = sum(c.sent for c in self.channels.values())
        lines = [
            "Fuzz run: malformed and hostile inputs through the HTTP API and the sockets",
            "(tests/fuzz; FUZZ_EXAMPLES sets the count, tests/fuzz/run_100k.py sends 100,000).",
            "",
            f"inputs sent: {total}",
            f"server errors (5xx or an exception out of a view or consumer): "
            f"{sum(c.server_errors for c in self.channels.values())}",
            f"inputs that were valid actions, stored: {sum(c.stored for c in self.channels.values())} "
            f"({sum(c.events_stored for c in self.channels.values())} events)",
            f"state changes by any other input (refused or retried): {self.unexpected_changes}",
            f"games verified at the end (hash chain, replay, every stored command once): {self.verified_games}",
            f"events lost or doubled: {self.lost_or_doubled}",
            f"duration: {time.perf_counter() - self.started:.0f} s",
            "",
        ]
        for name, c in sorted(self.channels.items()):
            lines.append(f"== {name}: {c.sent} inputs in {c.seconds:.0f} s, {c.server_errors} server errors")
            lines.append("   kinds: " + ", ".join(f"{k} {n}" for k, n in c.kinds.most_common()))
            lines.append("   answers: " + ", ".join(f"{k} {n}" for k, n in c.outcomes.most_common()))
        return "\n".join(lines) + "\n"


TALLY = Tally()


def write_report(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TALLY.report())
