"""examples/strands_trace.py runs: the invented metric fails at filter_data#4, the named one passes."""

from __future__ import annotations

import runpy
from typing import Any

import pytest


def test_the_trace_example_blames_the_invented_metric_and_passes_the_named_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.conftest import EXAMPLES

    namespace: dict[str, Any] = runpy.run_path(str(EXAMPLES / "strands_trace.py"), run_name="example_strands_trace")
    assert namespace["main"]() == 1  # v1 fails
    out = capsys.readouterr().out
    # steps: user-1, reply#2, user-3, filter_data#4: the call is the 4th step of the trace
    assert "invented_metric  aem_trace: pass False  failed: arguments; first critical failure step filter_data#4" in out
    assert "named_metric  aem_trace: pass True  trace passes every applicable dimension" in out
    assert '"pass_rate": 0.5' in out  # 1 of 2 traces
    assert '"veto_rate": 0.0' in out
