"""The club's year (issue #34): the points ranking of the games whose rules have one (``points``,
``counted``), and seasons — a club's championship over many evenings, kept as events in its own log
(``log``, ``standings``, ``service``). docs/rankings.md and docs/seasons.md."""
