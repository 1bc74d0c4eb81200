"""Scoring batches of dialogs in worker processes on one machine (``EvalOptions.workers``).

Each worker process builds its comparator and composer once, from the options, and keeps them for every
batch it scores (an embedding model loads once per worker). Batches are handed out as workers free up and
their results come back in input order, so a run gives exactly what one process gives: judging is a pure
function of the dialog and the options. Scorer instances cannot cross a process boundary, so workers
only serve runs set up by options (the CLI, ``iter_evaluate(..., options)``).
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

from aem_strands.compare.chain import Comparator
from aem_strands.compose import Composer
from aem_strands.options import EvalOptions
from aem_strands.result import DialogResult
from aem_strands.types import Dialog, JsonValue

K = TypeVar("K")

_state: tuple[EvalOptions, Comparator, Composer] | None = None
"""This worker's options, comparator and composer (set once, by ``_start``)."""


def _start(options: EvalOptions) -> None:
    from aem_strands.evaluate import make_comparator

    global _state
    _state = (options, make_comparator(options), options.make_composer())


def _score(chunk: list[Dialog | JsonValue]) -> list[DialogResult]:
    from aem_strands.evaluate import evaluate_chunk

    assert _state is not None  # set by the pool's initializer before any task runs
    options, comparator, composer = _state
    return evaluate_chunk(chunk, options, comparator, composer)


def scored_in_workers(
    batches: Iterable[tuple[K, list[Dialog | JsonValue]]], options: EvalOptions
) -> Iterator[tuple[K, Future[list[DialogResult]]]]:
    """Each ``(key, dialogs)`` batch's key and the future of its results, in input order, scored by
    ``options.workers`` processes. The caller takes ``future.result()`` (which raises what scoring raised).

    At most two batches per worker are in flight, so memory holds a few batches however long the input.
    """
    # "spawn" starts clean interpreters: no fork of a process that may hold model threads.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(options.workers, mp_context=context, initializer=_start, initargs=(options,)) as pool:
        pending: deque[tuple[K, Future[list[DialogResult]]]] = deque()
        for key, dialogs in batches:
            pending.append((key, pool.submit(_score, dialogs)))
            if len(pending) >= 2 * options.workers:
                key_done, future = pending.popleft()
                future.exception()  # wait for it before handing it out
                yield key_done, future
        while pending:
            yield pending.popleft()
