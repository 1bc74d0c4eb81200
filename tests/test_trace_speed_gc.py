"""Issue 29: judging a trace pauses the cyclic garbage collector, as judging dialogs does, and gives it back."""

from __future__ import annotations

import gc

import pytest

from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.load import load_traces
from aem_strands.types import JsonValue
from tests.conftest import EXAMPLES

TRACES = EXAMPLES / "data" / "traces"


class _Recording:
    """Exact equality, noting whether the collector ran while the checks asked."""

    def __init__(self) -> None:
        self.collector_on: list[bool] = []

    def same(self, a: JsonValue, b: JsonValue, name: str = "") -> bool | None:
        self.collector_on.append(gc.isenabled())
        return bool(a == b and type(a) is type(b))


@pytest.mark.usefixtures("collector_on")
def test_the_checks_run_with_the_collector_paused_and_it_is_back_after() -> None:
    values = _Recording()
    result = evaluate_trace(load_traces(TRACES / "refund_status.json")[0], policy=TRACES / "policy.yaml", values=values)
    assert result.status.value == "pass"
    assert values.collector_on  # the gold state's keys were compared
    assert not any(values.collector_on)
    assert gc.isenabled()


def test_a_paused_collector_stays_paused() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        evaluate_trace(load_traces(TRACES / "refund_status.json")[0], policy=TRACES / "policy.yaml")
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()
