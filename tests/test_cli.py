"""The ``aem-strands`` command: outputs, formats and exit codes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from aem_strands.cli import main
from tests.conftest import EXAMPLES, ROOT, action, paired, reply

REFERENCE = EXAMPLES / "data" / "sales_report.json"
TWO_ROOTS = EXAMPLES / "data" / "sales_report_two_roots.json"
GOLDEN = Path(__file__).parent / "golden"
SPEC_KEYS = ("success_rate", "test_pass", "first_failure_turn", "root_cause", "root_cause_count", "cascading_count")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_reference_dialog_prints_the_six_spec_values_with_the_default_embedding_scorer() -> None:
    code, out, _ = run("score", str(REFERENCE))
    (line,) = out.splitlines()
    record = json.loads(line)
    assert {k: record[k] for k in SPEC_KEYS} == {
        "success_rate": 0.2,
        "test_pass": False,
        "first_failure_turn": 2,
        "root_cause": "inconsistent_parameter_values",
        "root_cause_count": 1,
        "cascading_count": 3,
    }
    assert record["total_failures"] == 4
    assert code == 1  # a dialog fails


@pytest.mark.slow
def test_table_output_matches_the_golden_file() -> None:
    code, out, _ = run("score", str(REFERENCE), str(TWO_ROOTS), "--format", "table")
    expected = (GOLDEN / "sales_reports.table.txt").read_text(encoding="utf-8")
    assert out == expected
    assert code == 1


def test_all_passing_dialogs_exit_zero_and_json_format_is_an_array(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps([paired(1, reply("Hello."), reply("hello"))]), encoding="utf-8")
    code, out, _ = run("score", str(path), "--scorer", "exact", "--format", "json")
    assert code == 0
    (record,) = json.loads(out)
    assert (record["dialog_id"], record["score"], record["test_pass"]) == ("ok", 1.0, True)


def test_bad_record_is_reported_and_skipped_and_good_ones_scored(tmp_path: Path) -> None:
    good = {"dialog_id": "good", "turns": [paired(1, reply("Hi."), reply("Hi."))]}
    bad = {"dialog_id": "bad", "turns": [{"turn_no": 1, "turn": "Agent", "gold_turn": {"response": "x"}}]}
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    missing = tmp_path / "missing.json"
    code, out, err = run("score", str(path), str(missing), "--scorer", "exact")
    records = [json.loads(line) for line in out.splitlines()]
    assert (records[0]["dialog_id"], records[0]["test_pass"]) == ("good", True)
    assert records[1]["error"]["dialog_id"] == "bad"
    assert records[1]["error"]["turn_no"] == 1
    assert records[1]["error"]["field"] == "predict_turn"
    assert records[2]["error"]["file"] == str(missing)
    assert f"aem-strands: file {path}, line 2, dialog 'bad', turn 1, field 'predict_turn': Field required" in err
    assert code == 2


def test_out_file_and_composer_options(tmp_path: Path) -> None:
    out_file = tmp_path / "result.jsonl"
    code, out, _ = run("score", str(TWO_ROOTS), "--scorer", "exact", "--composer", "gated", "--out", str(out_file))
    assert out == ""
    record = json.loads(out_file.read_text(encoding="utf-8"))
    assert record["composer"] == "gated"
    assert code == 1


def test_bad_option_values_exit_2() -> None:
    with pytest.raises(SystemExit) as exit_info:
        run("score", str(REFERENCE), "--threshold-args", "1.5")
    assert exit_info.value.code == 2
    code, _, err = run("score", str(REFERENCE), "--composer", "thresholds", "--sub-metric-threshold", "speed=0.5")
    assert code == 2
    assert "unknown sub-metric 'speed'" in err


def test_compare_pairs_writes_one_line_per_pair_in_order(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    lines = [
        {"gold": "New York", "predicted": "new york", "kind": "argument"},
        {"gold": 2, "predicted": "3"},
        "not json",
        {"gold": "Hi.", "predicted": "Hi.", "kind": "response"},
        {"gold": "a", "kind": "argument"},
    ]
    pairs.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    code, out, err = run("compare", "--pairs", str(pairs), "--scorer", "exact")
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0] == {"equivalent": True, "score": 1.0, "method": "normalised"}
    assert records[1] == {"equivalent": False, "score": 0.0, "method": "normalised"}
    assert "malformed JSON" in records[2]["error"]["message"]
    assert records[3] == {"equivalent": True, "score": 1.0, "method": "exact"}
    assert records[4]["error"]["field"] == "predicted"
    assert "compared 3 pairs" in err
    assert code == 2


def test_installed_console_script_runs() -> None:
    script = Path(sys.executable).parent / "aem-strands"
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    done = subprocess.run(
        [str(script), "score", str(REFERENCE), "--scorer", "exact"], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["dialog_id"] == "sales_report"


@pytest.mark.slow
def test_thresholds_config_file_is_used(tmp_path: Path) -> None:
    # A multi-word argument that only the embedding model can decide: the config's threshold decides it.
    # (revenue/profit of the reference dialog is a single-word pair, which similarity never passes.)
    gold = "quarterly revenue report for Europe"
    predicted = "European quarterly sales summary"
    data = tmp_path / "d.json"
    data.write_text(json.dumps([paired(1, action("r", "Make", title=gold), action("r", "Make", title=predicted))]))
    verdicts = {}
    for name, value in (("strict", 0.99), ("lenient", 0.05)):
        config = tmp_path / f"{name}.json"
        config.write_text(json.dumps({"thresholds": {"argument": value, "argument_floor": value}}), encoding="utf-8")
        _, out, _ = run("score", str(data), "--thresholds", str(config))
        turn = json.loads(out)["turns"][0]
        verdicts[name] = turn["success"]
        assert f"{value:.2f}" in turn["decisions"][0]["detail"]  # the detail names the threshold used
    assert verdicts == {"strict": False, "lenient": True}


def test_bad_thresholds_config_exits_2_with_the_file_named(tmp_path: Path) -> None:
    config = tmp_path / "thresholds.json"
    config.write_text('{"thresholds": {"speed": 1}}', encoding="utf-8")
    code, _, err = run("score", str(REFERENCE), "--scorer", "exact", "--thresholds", str(config))
    assert code == 2
    assert f"{config}: unknown threshold keys ['speed']" in err
