"""The garbage collector of a server process (config/asgi.py; docs/performance.md).

CPython collects its youngest generation every 700 new container objects, and each such pass can
cascade into the older generations. A server holding thousands of open streams allocates that
many objects with every roll it fans out, so collections ran during nearly every fan-out and,
every so often, a full one walked every object of every stream: the slowest streams heard a roll
hundreds of milliseconds late for it. ``freeze`` first moves everything loaded at start-up (Django,
the URL patterns, the templates) out of the collector's sight for good; the higher young
threshold then collects a hundred times less often. What it keeps longer is garbage of reference
cycles only (plain objects are freed at once by reference counting): a few megabytes at most.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 100_000  # CPython's default: 700
OLDER_THRESHOLDS = (50, 100)  # young passes per middle pass, middle passes per full (10, 10)


def tune_garbage_collector() -> None:
    """Call once the application is loaded, before serving."""
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
