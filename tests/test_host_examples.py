"""examples/strands_trace.py runs: the invented metric is never a pass (inconclusive without a judge), the named
one passes."""

from __future__ import annotations

import runpy
from typing import Any

import pytest


def test_the_trace_example_blames_the_invented_metric_and_passes_the_named_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.conftest import EXAMPLES

    namespace: dict[str, Any] = runpy.run_path(str(EXAMPLES / "strands_trace.py"), run_name="example_strands_trace")
    assert namespace["main"]() == 1  # v1 does not pass
    out = capsys.readouterr().out
    # rules leave 'profit' after "a sales report" to the judge: without one, inconclusive, never a pass
    assert "invented_metric  aem_trace: pass False  inconclusive: could not decide arguments" in out
    assert "named_metric  aem_trace: pass True  trace passes every applicable dimension" in out
    assert '"pass_rate": 0.5' in out  # 1 of 2 traces
    assert '"veto_rate": 0.0' in out
