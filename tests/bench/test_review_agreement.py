"""The review-agreement bench (#35): with the exact endgames on, the reference is the review's own
solve, read back rather than solved twice; with them off, the reference solves afresh."""

from __future__ import annotations

from unittest import mock

import pytest

from replay import exact
from tests.bench import bench_review_agreement as agreement


@pytest.mark.parametrize("use_exact", [True, False])
def test_each_position_is_solved_once_when_the_review_solves_it(use_exact):
    solve = exact.values
    with mock.patch.object(exact, "values", wraps=solve) as spied:
        r = agreement.measure("draw", 3, 35, "strong", use_exact, exact.MAX_DEALS)
    assert r["positions"] == 3 and r["reference_shared"] is use_exact
    assert spied.call_count == 3, "one solve a position: the review's, or the reference's when exact is off"
    if use_exact:
        assert r["agree"] == 3 and r["mistaken_best"] == 0, "the review's values are the exact ones"
