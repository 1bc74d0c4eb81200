"""``--engine ray`` and ``aem_strands.distributed``: a local Ray instance scores exactly what the local path scores.

The Ray tests share one local instance (two CPUs, no dashboard) for the module and run few Ray jobs, since each
job starts its actors afresh; the per-batch logic is tested first without Ray.
"""

from __future__ import annotations

import io
import json
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands import EvalOptions, evaluate_dialogs
from aem_strands.cli import main
from aem_strands.distributed import (
    RESULT_COLUMNS,
    _aem_cause,
    _ScoreLines,
    _ScoreLoaded,
    _ScoreRows,
    dialogs_dataset,
    evaluate_dataset,
    numbered_lines,
    require_ray,
    results_in_order,
)
from aem_strands.errors import ConfigError, InputError, Location
from aem_strands.load import iter_records
from aem_strands.options import Engine
from aem_strands.workers import ScoredText, handed_back
from tests.conftest import EXAMPLES, action, paired

DATA = EXAMPLES / "data"
# Ray Data warns about its own deprecated settings whenever it copies its context; none of them is ours.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.*")


def _example_dialogs() -> list[Any]:
    """Every example dialog in its JSON form (paired, bare list and unpaired), 2 copies each under new ids:
    a few dozen dialogs, some passing and some failing."""
    raw: list[Any] = []
    for line in (DATA / "travel_dataset.jsonl").read_text(encoding="utf-8").splitlines():
        if '"trip-bad"' not in line:  # its bad record has a test of its own
            raw.append(json.loads(line))
    raw.extend(json.loads((DATA / "strands_unpaired.json").read_text(encoding="utf-8")))
    for name in ("sales_report", "sales_report_two_roots", "sales_report_wrong_recipient", "sales_report_wrong_tool"):
        raw.append({"dialog_id": name, "turns": json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))})
    return [{**d, "dialog_id": f"{d['dialog_id']}-{copy}"} for copy in range(2) for d in raw]


BAD_TEXT = '{"dialog_id": "broken", "turns": ['
BAD_DIALOG = {"dialog_id": "no-action", "turns": [paired(1, action("t", "a"), {"tool_id": "t"})]}


# --- without Ray: options, the missing extra, one batch --------------------------------------------------------------


def test_engine_is_an_enum_option_that_round_trips() -> None:
    options = EvalOptions(engine="ray")  # type: ignore[arg-type]  # a name, as from_dict and the CLI give it
    assert options.engine is Engine.RAY
    assert options.to_dict()["engine"] == "ray"
    assert EvalOptions.from_dict(json.loads(options.to_json())) == options
    with pytest.raises(ConfigError, match="engine must be one of local, ray, got 'spark'"):
        EvalOptions(engine="spark")  # type: ignore[arg-type]


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without the extra gives: ImportError
    # the package is on no index: the extra installs from the repository (before: pip install 'aem-strands[ray]')
    with pytest.raises(ConfigError, match=r"pip install -e '\.\[ray\]' from the aem-strands repository"):
        require_ray()
    err = io.StringIO()
    code = main(["score", str(DATA / "sales_report.json"), "--scorer", "exact", "--engine", "ray"], stderr=err)
    assert code == 2  # a ConfigError: bad option
    assert "pip install -e '.[ray]' from the aem-strands repository" in err.getvalue()
    assert "aem-strands[ray]" not in err.getvalue()


def test_one_batch_of_rows_gives_the_local_records_and_error_rows() -> None:
    dialogs = _example_dialogs()[:6]
    texts = [json.dumps(dialogs[0]), BAD_TEXT, json.dumps(BAD_DIALOG), *(json.dumps(d) for d in dialogs[1:]), "  "]
    options = EvalOptions(scorer="exact")
    batch = {"position": np.arange(len(texts)), "dialog": np.array(texts, dtype=object), "tag": np.arange(len(texts))}
    out = _ScoreRows(options.to_dict(), "dialog")(batch)
    assert list(out["tag"]) == list(range(len(texts)))  # other columns pass through
    assert "dialog" not in out
    records = [json.loads(text) for text in out["record"]]
    local = [r.to_dict() for r in evaluate_dialogs(dialogs, options)]
    assert [records[0], *records[3:-1]] == local
    assert [out["status"][i] for i in (1, 2, 8)] == ["error"] * 3
    assert records[1]["error"]["index"] == 1
    assert records[1]["error"]["message"].startswith("malformed JSON")
    assert records[2] == {"dialog_id": "no-action", "error": records[2]["error"]}
    assert records[2]["error"]["field"] == "predict_turn.action"
    assert records[2]["error"]["index"] == 2
    assert records[8]["error"]["message"] == "a row must hold one dialog as JSON text, got empty text"
    assert out["dialog_id"][0] == local[0]["dialog_id"]
    assert out["status"][0] == local[0]["status"]


def test_loaded_records_keep_their_errors_and_order_through_a_batch() -> None:
    path = DATA / "travel_dataset.jsonl"
    records = list(iter_records(path))
    options = EvalOptions(scorer="exact")
    loaded = [r for r in records if r.dialog is not None]
    batch = {"position": np.arange(len(loaded)), "payload": np.array([pickle.dumps(r) for r in loaded], dtype=object)}
    out = _ScoreLoaded(options.to_dict())(batch)
    got = [pickle.loads(item) for item in out["item"]]
    local = evaluate_dialogs([r.dialog for r in loaded], options)
    assert [g.to_dict() for g in got] == [r.to_dict() for r in local]


def _reader(data: bytes, step: int) -> Any:
    """A ``read`` that hands out ``data`` ``step`` bytes at a time, whatever it is asked for."""
    stream = io.BytesIO(data)
    return lambda _size: stream.read(step)


@given(
    st.lists(st.sampled_from([b"{}", b"", b" ", b"\r", b"\xe2\x80\xa8", b"\xff", b'{"a": 1}', b"x" * 50]), max_size=12),
    st.booleans(),
    st.booleans(),
    st.integers(1, 64),
    st.integers(1, 4),
)
def test_numbered_lines_are_the_local_loaders_lines(
    parts: list[bytes], bom: bool, newline_at_end: bool, step: int, rows: int
) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + b"\n".join(parts) + (b"\n" if newline_at_end else b"")
    blocks = list(numbered_lines(_reader(data, step), rows))
    got = [(n, raw) for numbers, lines in blocks for n, raw in zip(numbers, lines, strict=True)]
    expected = [(n, raw.removeprefix(b"\xef\xbb\xbf") if n == 1 else raw) for n, raw in enumerate(data.split(b"\n"), 1)]
    assert got == [(n, raw) for n, raw in expected if raw.strip()]
    sizes = [len(lines) for _, lines in blocks]
    assert all(size == rows for size in sizes[:-1])
    assert all(0 < size <= rows for size in sizes)


def test_a_batch_of_lines_gives_the_local_records_errors_and_default_ids(tmp_path: Path) -> None:
    import pyarrow  # type: ignore[import-untyped]  # ships no type information

    dialogs = _example_dialogs()[:5]
    lines = [json.dumps(dialogs[0]), BAD_TEXT, json.dumps(BAD_DIALOG), json.dumps(dialogs[1:3]), "\xff", ""]
    lines += [json.dumps(d) for d in dialogs[3:]] + [json.dumps(dialogs[0])]  # the last repeats an id
    data = "\n".join(lines).encode("utf-8").replace(b"\xc3\xbf", b"\xff")  # one line that is not UTF-8
    path = tmp_path / "set.jsonl"
    path.write_bytes(data)
    options = EvalOptions(scorer="exact")
    numbers, raws = next(numbered_lines(_reader(data, 7), 100))
    batch = pyarrow.table(
        {"line": pyarrow.array(numbers, pyarrow.int64()), "raw": pyarrow.array(raws, pyarrow.binary())}
    )
    out = _ScoreLines(options.to_dict(), str(path), None)(batch)
    assert out.column("line").to_pylist() == numbers
    seen: set[str] = set()
    items = [i for handed in out.column("outcomes").to_pylist() for i in handed_back(pickle.loads(handed), seen)]
    local = list(iter_records(path))
    assert len(items) == len(local) == 9  # the array line holds two dialogs, the blank line none
    scored = iter(evaluate_dialogs([r.dialog for r in local if r.dialog is not None], options))
    for item, record in zip(items, local, strict=True):
        if record.error is not None:
            assert isinstance(item, InputError)
            assert (item.message, item.location) == (record.error.message, record.error.location)
        else:
            assert isinstance(item, ScoredText)
            assert json.loads(item.text) == next(scored).to_dict()


def test_an_error_crosses_the_wire_with_its_message_and_location() -> None:
    error = InputError("could not be scored: ValueError: x", Location("f.jsonl", "d", None, None, 3))
    back = pickle.loads(pickle.dumps(error))
    assert isinstance(back, InputError)
    assert (back.message, back.location) == (error.message, error.location)


def test_our_error_inside_an_actor_is_raised_as_itself() -> None:
    class TaskError(Exception):  # how Ray hands back an actor's exception: the original as ``cause``
        def __init__(self, cause: BaseException) -> None:
            super().__init__("task failed")
            self.cause = cause

    ours = ConfigError("embedding_model: no model folder at /nowhere")
    assert _aem_cause(RuntimeError("outer")) is None
    assert _aem_cause(TaskError(ours)) is ours
    chained = RuntimeError("outer")
    chained.__cause__ = TaskError(ours)
    assert _aem_cause(chained) is ours


# --- a local Ray instance --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = require_ray()
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="warning")
    except Exception as error:  # no shared memory, no free ports, a sandbox that forbids the raylet...
        pytest.skip(f"a local Ray instance could not start here: {type(error).__name__}: {error}")
    yield ray
    ray.shutdown()


def test_evaluate_dataset_gives_evaluate_dialogs_records_in_input_order(local_ray: Any) -> None:
    dialogs = _example_dialogs()
    inputs: list[Any] = [*dialogs[:5], BAD_TEXT, *dialogs[5:]]
    options = EvalOptions(scorer="exact", workers=2, batch_size=3)  # several batches on two actors
    results = evaluate_dataset(dialogs_dataset(inputs), options).materialize()
    assert set(results.columns()) == {"position", *RESULT_COLUMNS}
    records = list(results_in_order(results))
    local = [r.to_dict() for r in evaluate_dialogs(dialogs, EvalOptions(scorer="exact"))]
    assert [*records[:5], *records[6:]] == local
    assert records[5]["error"]["index"] == 5
    assert {r["status"] for r in local} == {"pass", "fail"}  # the set holds both outcomes


def test_results_in_order_needs_a_position_column(local_ray: Any) -> None:
    dataset = local_ray.data.from_items([{"dialog": json.dumps(d)} for d in _example_dialogs()[:2]])
    with pytest.raises(ConfigError, match="with a 'position' column, got columns dialog;"):
        next(results_in_order(dataset))
    with pytest.raises(ConfigError, match="no column 'text'"):
        evaluate_dataset(dataset, column="text")


def _score(path: Path, *extra: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", str(path), "--format", "jsonl", *extra], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_engine_ray_writes_the_local_records_errors_and_exit_code(local_ray: Any, tmp_path: Path) -> None:
    lines = [json.dumps(d) for d in _example_dialogs()]
    lines[3:3] = [BAD_TEXT, json.dumps(BAD_DIALOG), lines[0]]  # malformed, invalid, a duplicate id
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    local = _score(path, "--scorer", "exact")
    ray = _score(path, "--scorer", "exact", "--engine", "ray", "--batch-size", "4")  # a pool of 1 to 2 actors
    assert local[0] == 2  # bad records: exit 2, the others scored
    assert ray[1] == local[1]
    assert ray[0] == local[0]
    errors = [line for line in ray[2].splitlines() if line.startswith("aem-strands: file")]
    assert errors == [line for line in local[2].splitlines() if line.startswith("aem-strands: file")]
    assert len(errors) == 3


def test_cli_engine_ray_streams_a_jsonl_file_and_loads_other_inputs_as_locally(local_ray: Any, tmp_path: Path) -> None:
    dialogs = _example_dialogs()
    jsonl = tmp_path / "set.jsonl"
    jsonl.write_text("\n".join([json.dumps(d) for d in dialogs[:6]] + [BAD_TEXT, json.dumps(dialogs[:2])]) + "\n")
    document = tmp_path / "set.json"
    document.write_text(json.dumps([*dialogs[6:9], BAD_DIALOG]), encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n \n", encoding="utf-8")
    inputs = [str(p) for p in (jsonl, document, empty, tmp_path / "missing.jsonl")]
    for fmt in ("json", "jsonl"):
        local = _score_many(inputs, "--scorer", "exact", "--format", fmt)
        # One actor per CPU of the instance: the read of the JSONL file must still find room to run.
        ray = _score_many(
            inputs, "--scorer", "exact", "--format", fmt, "--engine", "ray", "--batch-size", "3", "--workers", "2"
        )
        assert ray == local
        assert local[0] == 2
        errors = [line for line in local[2].splitlines() if line.startswith("aem-strands: file")]
        assert len(errors) == 6  # the bad line, two repeated ids, the bad dialog, the empty and the missing file
        assert "the file is empty" in errors[4]
        assert "cannot read file" in errors[5]


def _score_many(paths: list[str], *extra: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", *paths, *extra], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_engine_ray_never_loads_a_jsonl_file_on_the_driver(
    local_ray: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import aem_strands.distributed as distributed

    def driver_loaded(*_: object) -> Iterator[Any]:
        raise AssertionError("a JSONL file went through the driver-loaded path")

    monkeypatch.setattr(distributed, "scored_on_ray", driver_loaded)
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in _example_dialogs()[:4]) + "\n", encoding="utf-8")
    local = _score(path, "--scorer", "exact")
    assert _score(path, "--scorer", "exact", "--engine", "ray") == local
