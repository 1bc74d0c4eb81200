"""``export-regression`` of ``aem-strands trace`` output keeps a case only when it reproduces its record's whole
verdict: status, veto, first critical step, critical rule and failing dimensions (before: status and first critical
step only, so a case could fail at the same step for another reason, or without its veto, and still be written).

Each test edits one field of a real record (as another trace run, or a hand-edited file, would give) and checks that
the unedited record exports and the edited one is named, with what differs."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from aem_strands.cli import main as aem_strands
from tests.conftest import EXAMPLES

TRACES = EXAMPLES / "data" / "traces"
POLICY = str(TRACES / "policy.yaml")
SOURCE = str(TRACES / "refund_identity.yaml")


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    return aem_strands(argv, stdout=io.StringIO(), stderr=err), err.getvalue()


def _record(tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "judged.jsonl"
    code, err = _run(["trace", SOURCE, "--policy", POLICY, "--out", str(out)])
    assert code == 1, err
    [record] = [r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines()) if not r["test_pass"]]
    return dict(record)


def _export(tmp_path: Path, record: dict[str, Any]) -> tuple[int, str, list[str]]:
    judged = tmp_path / "edited.jsonl"
    judged.write_text(json.dumps(record) + "\n", encoding="utf-8")
    cases = tmp_path / "cases.json"
    code, err = _run(["export-regression", str(judged), "--inputs", SOURCE, "--policy", POLICY, "--out", str(cases)])
    return code, err, [c["name"] for c in json.loads(cases.read_text(encoding="utf-8"))["cases"]]


def test_the_record_as_written_exports(tmp_path: Path) -> None:
    record = _record(tmp_path)
    assert (record["status"], record["first_critical_failure_step"], record["veto"]) == ("fail", "s5", False)
    assert _export(tmp_path, record) == (0, "aem-strands: wrote " + str(tmp_path / "cases.json") +
                                         " (1 failing case, 0 confirmed by counterfactual replay)\n",
                                         ["refund-no-identity"])  # fmt: skip


@pytest.mark.parametrize(
    ("field", "said"),
    [("veto", "veto False vs True"), ("critical_rule", "critical_rule "), ("dimensions", "failing dimensions ")],
)
def test_a_record_whose_verdict_differs_in_one_field_is_named(tmp_path: Path, field: str, said: str) -> None:
    record = _record(tmp_path)
    if field == "veto":
        record["veto"] = True
    elif field == "critical_rule":
        record["critical_rule"] = "another rule"
    else:  # one more failing dimension than the trace has
        passing = next(name for name, d in record["dimensions"].items() if d["pass"] is True)
        record["dimensions"] = {**record["dimensions"], passing: {**record["dimensions"][passing], "pass": False}}
    code, err, names = _export(tmp_path, record)
    assert code == 2
    assert "trace 'refund-no-identity': not exported: judged fail (s5), but the record says fail (s5)" in err
    assert said in err
    assert names == []
