"""Pausing Python's cyclic garbage collector while a judging runs: one pause for every judging in a process,
dialogs (``evaluate.evaluate_chunk``) and traces (``trace.evaluate.evaluate_trace``) alike."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator


class CollectorPause:
    """Pauses Python's cyclic garbage collector while batches are judged, and resumes it (if it was on) when the
    last batch in flight, in any thread, is done.

    Judging allocates many small objects that live until the batch's results are written; each automatic
    collection walks all of them again, which on the SGD set took about half of the run's CPU time. Judging
    makes no reference cycles, so pausing frees nothing later than it would have been freed.

    On resuming, the objects made meanwhile are moved to the oldest generation without a walk (``gc.freeze`` then
    ``gc.unfreeze``), where the collector's next full collection looks at them, as it would have after the two
    young collections this skips; without the move, the first allocation after resuming walked every object the
    batches made (about a fifth of a warm run on the SGD set). Not done where the host froze objects of its own
    (``gc.get_freeze_count()``), which ``unfreeze`` would release.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0
        self._resume = False

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if self._active == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._active += 1
        try:
            yield
        finally:
            with self._lock:
                self._active -= 1
                if self._active == 0 and self._resume:
                    if gc.get_freeze_count() == 0:
                        gc.freeze()
                        gc.unfreeze()
                    gc.enable()


collector_paused = CollectorPause()
"""The process's one pause, shared by every judging (nested and concurrent uses count)."""
