"""Issue 14's fixture pair gives the same roots and cascades from the CLI, the API and the session evaluator.

Both dialogs: turn 2 filters on ``profit`` instead of ``revenue`` (root cause), turn 3 builds the
report from the wrong dataset ``ds-7732`` (data flow), turn 5 restates ``profit`` (data flow).
Turn 4 differs:

- ``sales_report_wrong_recipient.json``: the e-mail goes to ``ceo@`` instead of ``cfo@``. Nothing
  in it comes from turns 2 or 3, so it is a second root cause, not an action-chain cascade.
- ``sales_report_wrong_tool.json``: the agent posts to a chat tool instead of sending an e-mail, a
  structural failure in the chain of failed turn 2, so it cascades by the action-chain clause.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from strands_evals import Experiment

import aem_strands
from aem_strands.cli import main
from aem_strands.strands import AemSessionEvaluator, offline_case, offline_task
from tests.conftest import EXAMPLES, ROOT

Row = tuple[int, str | None, int | None, str | None]  # turn_no, failure_reason, caused_by, link

EXPECTED: dict[str, tuple[list[Row], list[int]]] = {
    "sales_report_wrong_recipient": (
        [
            (1, None, None, None),
            (2, "inconsistent_parameter_values", None, None),
            (3, "prior_action_failed", 2, "data_flow"),
            (4, "inconsistent_parameter_values", None, None),
            (5, "prior_action_failed", 2, "data_flow"),
        ],
        [2, 4],
    ),
    "sales_report_wrong_tool": (
        [
            (1, None, None, None),
            (2, "inconsistent_parameter_values", None, None),
            (3, "prior_action_failed", 2, "data_flow"),
            (4, "prior_action_failed", 2, "action_chain"),
            (5, "prior_action_failed", 2, "data_flow"),
        ],
        [2],
    ),
}
NAMES = sorted(EXPECTED)


def path_of(name: str) -> Path:
    return EXAMPLES / "data" / f"{name}.json"


def rows(record: dict[str, Any]) -> list[Row]:
    return [(t["turn_no"], t["failure_reason"], t["caused_by"], t["link"]) for t in record["turns"]]


def check(record: dict[str, Any], name: str) -> None:
    expected_rows, expected_roots = EXPECTED[name]
    assert rows(record) == expected_rows
    assert [r["turn_no"] for r in record["root_causes"]] == expected_roots
    assert record["root_cause_count"] == len(expected_roots)
    assert record["cascading_count"] == 4 - len(expected_roots)  # 4 failed turns (2 to 5), the rest cascade


@pytest.mark.parametrize("name", NAMES)
def test_api(name: str) -> None:
    dialogs = aem_strands.load_dialogs(path_of(name))
    (result,) = aem_strands.evaluate_dialogs(dialogs, scorer="exact")
    check(result.to_dict(), name)


@pytest.mark.parametrize("name", NAMES)
def test_cli_in_process(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", str(path_of(name)), "--scorer", "exact", "--format", "json"])
    (record,) = json.loads(capsys.readouterr().out)
    check(record, name)
    assert code == 1  # the dialog fails


def test_cli_command_on_both_files() -> None:
    command = [sys.executable, "-m", "aem_strands.cli", "score", *map(str, map(path_of, NAMES))]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [*command, "--scorer", "exact", "--format", "json"], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert done.returncode == 1, done.stderr
    records = json.loads(done.stdout)
    for name, record in zip(NAMES, records, strict=True):
        assert record["dialog_id"] == name
        check(record, name)


def test_session_evaluator_in_an_experiment() -> None:
    cases = [offline_case(json.loads(path_of(name).read_text(encoding="utf-8")), name=name) for name in NAMES]
    report = Experiment(cases=cases, evaluators=[AemSessionEvaluator(scorer="exact")]).run_evaluations(offline_task)
    assert report.test_passes == [False, False]
    for name, outputs in zip(NAMES, report.detailed_results, strict=True):
        (row,) = outputs
        assert row.metadata is not None
        check(row.metadata, name)
        assert row.reason.count("root cause turn") == len(EXPECTED[name][1])
