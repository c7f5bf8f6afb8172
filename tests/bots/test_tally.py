"""The paired tally stops sampling only when one action clearly leads."""

import random

from games.bots.tally import PairedTally


def test_a_clear_leader_settles_after_the_minimum():
    rng = random.Random(1)
    tally = PairedTally(3, min_samples=24)
    for _ in range(23):
        noise = rng.gauss(0, 5)
        tally.add([10 + noise, noise, -3 + noise])  # shared noise: paired differences are exact
    assert not tally.settled()
    tally.add([10, 0, -3])
    assert tally.settled() and tally.best() == 0


def test_a_close_race_never_settles():
    rng = random.Random(2)
    tally = PairedTally(2, min_samples=8)
    for _ in range(400):
        tally.add([rng.gauss(0, 1), rng.gauss(0, 1)])
        assert not tally.settled() or abs(tally.totals[0] - tally.totals[1]) / tally.samples > 0.1


def test_ties_go_to_the_earliest_action():
    tally = PairedTally(3)
    tally.add([1.0, 2.0, 2.0])
    assert tally.best() == 1
