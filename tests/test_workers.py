"""``--workers N``: dialogs scored in worker processes give exactly what one process gives."""

from __future__ import annotations

import io
import json

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


def test_cli_workers_write_the_serial_records_and_exit_code() -> None:
    path = str(DATA / "travel_dataset.jsonl")
    runs = []
    for extra in ([], ["--workers", "2", "--batch-size", "2"]):
        out = io.StringIO()
        code = main(["score", path, "--scorer", "exact", "--format", "jsonl", *extra], stdout=out, stderr=io.StringIO())
        runs.append((code, [json.loads(line) for line in out.getvalue().splitlines()]))
    assert runs[1] == runs[0]
