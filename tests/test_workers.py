"""``--workers N``: dialogs scored in worker processes give exactly what one process gives."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from aem_strands import EvalOptions, evaluate_dialogs, load_dialogs
from aem_strands.cli import main
from aem_strands.evaluate import iter_evaluate
from tests.conftest import EXAMPLES

DATA = EXAMPLES / "data"


def test_workers_give_the_serial_results_in_order() -> None:
    dialogs = [
        d for name in ("travel_dataset.jsonl", "strands_unpaired.json") for d in load_dialogs(DATA / name).dialogs
    ]
    serial = [r.to_dict() for r in evaluate_dialogs(dialogs, scorer="exact")]
    options = EvalOptions(scorer="exact", workers=2, batch_size=2)
    parallel = [r.to_dict() for r in iter_evaluate(dialogs, options)]
    assert parallel == serial


def _mixed_jsonl(folder: Path) -> Path:
    """Good dialogs with, between them, every kind of bad record: a blank line, broken JSON, a NaN, a repeated id
    (in another batch than its first use), a line holding an array of dialogs, a dialog with no turns."""
    good = (DATA / "travel_dataset.jsonl").read_text(encoding="utf-8").splitlines()
    unpaired = json.loads((DATA / "strands_unpaired.json").read_text(encoding="utf-8"))
    first = json.loads(good[0])
    lines = [
        good[0],
        "",
        '{"dialog_id": "broken", "turns": [',
        good[1],
        '{"dialog_id": "nan", "turns": [{"turn_no": 1, "turn": "Agent", "weight": NaN}]}',
        json.dumps(unpaired if isinstance(unpaired, list) else [unpaired]),
        good[2],
        json.dumps({**first, "metadata": {}}),  # the id of line 1 again
        '{"dialog_id": "empty", "turns": []}',
        good[3],
    ]
    path = folder / "mixed.jsonl"
    path.write_text("\ufeff" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", *args, "--scorer", "exact"], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_cli_workers_write_the_serial_text_errors_and_exit_code(tmp_path: Path, fmt: str) -> None:
    # Workers read, score and write their own lines; the parent checks ids across batches: the output is the
    # serial run's, byte for byte, and so are stderr and the exit code (2: bad records).
    mixed = str(_mixed_jsonl(tmp_path))
    serial = _run([mixed, "--format", fmt])
    parallel = _run([mixed, "--format", fmt, "--workers", "2", "--batch-size", "2"])
    assert parallel == serial
    assert serial[0] == 2
    assert "dialog_id is used by an earlier dialog" in serial[2]


def test_cli_workers_read_a_json_document_and_several_files() -> None:
    paths = [str(DATA / "strands_unpaired.json"), str(DATA / "travel_dataset.jsonl"), str(DATA / "sales_report.json")]
    serial = _run([*paths, "--format", "jsonl"])
    parallel = _run([*paths, "--format", "jsonl", "--workers", "2", "--batch-size", "1"])
    assert parallel == serial
    assert len(serial[1].splitlines()) > 3


def test_cli_workers_report_an_unreadable_file_in_its_place(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    paths = [str(DATA / "travel_dataset.jsonl"), str(empty), str(tmp_path / "absent.jsonl")]
    serial = _run([*paths, "--format", "jsonl"])
    parallel = _run([*paths, "--format", "jsonl", "--workers", "2"])
    assert parallel == serial
    assert "the file is empty" in serial[2]
    assert "cannot read file" in serial[2]
