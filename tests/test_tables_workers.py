"""``--workers N`` is N scoring processes: N - 1 worker processes and the calling one, which takes a batch whenever
the workers have two each in hand; every batch's result or failure comes back in input order."""

from __future__ import annotations

import os

import pytest

from aem_strands.options import EvalOptions
from aem_strands.workers import _in_order


def _where(state: object, number: int) -> tuple[int, int]:
    if number == 5:
        raise ValueError("batch 5 fails")
    return number, os.getpid()


def test_batches_come_back_in_order_from_the_workers_and_this_process() -> None:
    calls = [(_where, (n,)) for n in range(20)]
    futures = list(_in_order(calls, EvalOptions(scorer="exact", workers=2)))
    with pytest.raises(ValueError, match="batch 5 fails"):
        futures[5].result()
    done = [f.result() for i, f in enumerate(futures) if i != 5]
    assert [number for number, _ in done] == [n for n in range(20) if n != 5]
    here = {number for number, pid in done if pid == os.getpid()}
    # Batches 0 and 1 go to the one worker (two in its hands); batch 2 comes while it is still starting, so this
    # process scores it, and so on up to AHEAD batches beyond the worker's two before it waits for batch 0.
    assert {number for number, _ in done} - here, "the worker scored nothing"
    assert {0, 1}.isdisjoint(here)
    assert 2 in here


def test_one_process_scores_everything_here() -> None:
    futures = list(_in_order([(_where, (n,)) for n in (1, 2, 3)], EvalOptions(scorer="exact", workers=1)))
    assert [f.result() for f in futures] == [(n, os.getpid()) for n in (1, 2, 3)]
