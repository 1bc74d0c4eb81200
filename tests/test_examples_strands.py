"""Every Strands example script runs (in-process) with the expected exit code and scores."""

from __future__ import annotations

import runpy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES, ROOT


def load_main(name: str) -> Callable[..., int]:
    namespace: dict[str, Any] = runpy.run_path(str(EXAMPLES / name), run_name=f"example_{Path(name).stem}")
    return namespace["main"]  # type: ignore[no-any-return]


@pytest.mark.slow  # the default embedding scorer loads MiniLM
def test_strands_experiment_runs_aem_next_to_builtins(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_main("strands_experiment.py")() == 1  # the AEM rows fail: turn 2 is wrong
    out = capsys.readouterr().out
    # default embedding scorer: turns 1 and 6 pass of 6 -> 0.33; 'profit' vs 'revenue' 0.73 < 0.80
    assert "aem_correctness: score 0.33 pass False  root cause turn 2: inconsistent_parameter_values" in out
    assert "aem_turns: score 0.33 pass False" in out
    assert "ToolCalled: score 1.00 pass True" in out
    assert "HarmfulnessEvaluator: score 1.00 pass True" in out
    assert '"inconsistent_parameter_values": {\n      "root_cause": 1,\n      "cascade": 2' in out


def test_strands_async_keeps_four_concurrent_cases_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_main("strands_async.py")() == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [
        " wrong_metric: 0.33  root cause turn 1: inconsistent_parameter_values (args.metric 'profit' vs 'revenue'); "
        "1 cascading",
        " wrong_region: 0.33  root cause turn 1: inconsistent_parameter_values (args.region 'US' vs 'EU'); 1 cascading",
        "   wrong_year: 0.33  root cause turn 1: inconsistent_parameter_values (args.year 2023 vs 2024); 1 cascading",
        "        right: 1.00  all 3 judged turns pass",
    ]
    # mean (1/3 * 3 + 1) / 4 = 0.5; one of four cases passes
    assert lines[4] == "AemSessionEvaluator: 4 cases, mean score 0.5, pass rate 0.25"


def test_cached_rerun_runs_the_agent_once_and_scores_edited_gold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert load_main("cached_rerun.py")([str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "score 0.33, agent runs so far 1, cache hits 0",
        "score 0.33, agent runs so far 1, cache hits 1",
        "score 1.00, agent runs so far 1, cache hits 1",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart.json"]


def test_every_row_of_the_host_feature_table_names_tests_that_exist() -> None:
    import re

    text = (ROOT / "docs" / "STRANDS.md").read_text(encoding="utf-8")
    table = text.split("## Host feature → works with AEM? how", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ")][1:]  # after the header row
    assert len(rows) >= 19
    for row in rows:
        named = re.findall(r"`(test_[a-z_]+\.py)(?:::(test_[a-z0-9_]+))?`", row)
        assert named, row
        for module, test in named:
            source = (ROOT / "tests" / module).read_text(encoding="utf-8")
            assert test == "" or f"def {test}(" in source, f"{module}::{test}"
