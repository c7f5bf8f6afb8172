"""The long-lived process's heap: what Python's cyclic garbage collector need not look at again.

A web process holding a thousand table sockets and their kept folds was measured (issue #36,
docs/BENCHMARKS.md) stopping for 0.2–0.5 s on the collector's full passes, every few seconds under load,
most of that time walking the objects that start-up made (Django, the apps, the engines, the catalogues):
they live as long as the process and are never garbage. Freezing them once start-up is done takes them
out of every later pass; what is made afterwards is collected as before.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect what start-up left behind, then freeze the rest (call once the process is ready to serve;
    in a forked pool process it also spares the pages shared with the parent from being written)."""
    gc.collect()
    gc.freeze()
