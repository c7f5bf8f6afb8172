"""Paired sample statistics for the sampling bots, with an early stop once one action clearly leads.

Every sampled state is played out for every candidate action, so the candidates'
values are paired: the difference between the leader and each rival, sample by
sample, has a much smaller spread than either value alone. Once every rival trails
the leader by ``z`` standard errors of that difference, more samples would only
confirm the choice, and the move is played sooner.
"""

from __future__ import annotations

import math


class PairedTally:
    """Sums of each action's values, and of the paired differences against a running leader."""

    def __init__(self, actions: int, z: float = 3.0, min_samples: int = 24) -> None:
        self.totals = [0.0] * actions
        self.samples = 0
        self.z = z
        self.min_samples = min_samples
        self._rows: list[list[float]] = []

    def add(self, values: list[float]) -> None:
        """One sampled state's values, one per action."""
        for i, v in enumerate(values):
            self.totals[i] += v
        self._rows.append(values)
        self.samples += 1

    def best(self) -> int:
        """The index of the highest total (the earliest on a tie)."""
        return max(range(len(self.totals)), key=lambda i: (self.totals[i], -i))

    def settled(self) -> bool:
        """Whether the leader beats every rival by ``z`` standard errors of the paired difference.

        Checked every eighth sample only: the check costs a pass over every row.
        """
        n = self.samples
        if n < self.min_samples or n % 8 or len(self.totals) < 2:
            return False
        lead = self.best()
        for rival in range(len(self.totals)):
            if rival == lead:
                continue
            diffs = [row[lead] - row[rival] for row in self._rows]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean <= self.z * math.sqrt(var / n):
                return False
        return True
