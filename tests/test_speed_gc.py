"""Judging pauses the cyclic garbage collector and gives it back as it found it (``collector.CollectorPause``)."""

from __future__ import annotations

import gc
import threading

import pytest

from aem_strands import InputError, evaluate_dialogs
from aem_strands.collector import CollectorPause

DIALOG = {
    "dialog_id": "d",
    "gold": [{"turn": "Agent", "response": "Hi"}],
    "predicted": [{"turn": "Agent", "response": "Hi"}],
}


@pytest.mark.usefixtures("collector_on")
def test_the_collector_is_paused_while_judging_and_on_again_after() -> None:
    pause = CollectorPause()
    with pause():
        assert not gc.isenabled()
        with pause():  # nested (another batch in flight)
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer batch is still running
    assert gc.isenabled()
    assert evaluate_dialogs([DIALOG], scorer="exact")[0].status == "pass"
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_a_failing_batch_gives_the_collector_back() -> None:
    with pytest.raises(InputError):
        evaluate_dialogs([{"dialog_id": "d", "gold": "not a list", "predicted": []}], scorer="exact")
    assert gc.isenabled()


def test_a_collector_the_host_turned_off_stays_off() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        evaluate_dialogs([DIALOG], scorer="exact")
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


@pytest.mark.usefixtures("collector_on")
def test_batches_in_several_threads_resume_the_collector_once_all_are_done() -> None:
    pause = CollectorPause()
    inside = threading.Barrier(4)
    leave = threading.Event()

    def batch() -> None:
        with pause():
            inside.wait()
            leave.wait()

    threads = [threading.Thread(target=batch) for _ in range(3)]
    for thread in threads:
        thread.start()
    inside.wait()  # all three batches are in flight
    assert not gc.isenabled()
    leave.set()
    for thread in threads:
        thread.join()
    assert gc.isenabled()
