"""Bad input, hostile data and faults (issue 9): nothing lost, nothing crashes, every error names where.

One test (or parameter) per bullet of the issue's bad-input matrix. All runs use the exact scorer.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from aem_strands import EvalOptions, InputError, TableScorer, evaluate_dialog, load_dialogs
from aem_strands.cli import main
from aem_strands.decode import MAX_DEPTH, MAX_NUMBER_CHARS, MAX_STRING_CHARS
from aem_strands.evaluate import make_comparator
from aem_strands.load import iter_records
from aem_strands.types import ValueKind
from aem_strands.workers import score_chunk
from tests.conftest import action, paired, reply


def good(name: str) -> dict[str, Any]:
    return {"dialog_id": name, "turns": [paired(1, reply("Hi."), reply("Hi."))]}


def with_value(name: str, raw_value: str) -> str:
    """A dialog (one JSON line) whose predicted reply's observation is ``raw_value``, written as raw JSON text."""
    turn = '{"turn_no": 1, "turn": "Agent", "gold_turn": {"response": "Hi."}, "predict_turn": {"response": "Hi."'
    return '{"dialog_id": "' + name + '", "turns": [' + turn + ', "observation": ' + raw_value + "}}]}"


def jsonl(*items: object) -> str:
    return "".join((i if isinstance(i, str) else json.dumps(i)) + "\n" for i in items)


def run(*argv: str, stdin: Any = None, stdout: Any = None) -> tuple[int, str, str]:
    out, err = stdout or io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=stdin)
    return code, out.getvalue() if isinstance(out, io.StringIO) else "", err.getvalue()


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.split("\n") if line]


def scored_ids(text: str) -> list[str]:
    return [r["dialog_id"] for r in records(text) if "test_pass" in r]


# --- data that used to crash the whole run: now one error record, the others scored --------------------------------

ODD_VALUES = {
    "integer with 5,000 digits": ("9" * 5000, "number literal of 5,000 characters"),
    "number beyond float range": ("1e400", "number 1e400 is out of range"),
    "lone surrogate": ('"\\ud800"', "lone surrogate \\ud800 at character 0 is not valid Unicode"),
    "lone surrogate in a key": ('{"\\udfff": 1}', "object key: lone surrogate"),
    "nesting depth 1,000": ("[" * 1000 + "]" * 1000, f"nesting deeper than {MAX_DEPTH} levels"),
    "nesting just past the limit": ("[" * MAX_DEPTH + "]" * MAX_DEPTH, f"nesting deeper than {MAX_DEPTH} levels"),
    "NaN": ("NaN", "NaN or infinite number is not allowed"),
    "string past the size limit": ('"' + "x" * (MAX_STRING_CHARS + 1) + '"', "string of 1,000,001 characters"),
}


@pytest.mark.parametrize("case", list(ODD_VALUES))
def test_an_odd_record_is_its_own_error_and_the_others_are_scored(tmp_path: Path, case: str) -> None:
    raw, message = ODD_VALUES[case]
    path = tmp_path / "set.jsonl"
    path.write_text(jsonl(good("a"), with_value("odd", raw), good("b")), encoding="utf-8")
    code, out, err = run("score", str(path), "--scorer", "exact")
    assert scored_ids(out) == ["a", "b"]
    (error,) = [r["error"] for r in records(out) if "error" in r]
    assert (error["file"], error["line"]) == (str(path), 2)
    assert message in error["message"]
    assert f"file {path}, line 2" in err
    assert "Traceback" not in err
    assert code == 2


def test_limits_allow_what_is_inside_them(tmp_path: Path) -> None:
    deep = "[" * (MAX_DEPTH - 5) + "]" * (MAX_DEPTH - 5)
    long_number = "1" * MAX_NUMBER_CHARS
    path = tmp_path / "set.jsonl"
    path.write_text(jsonl(with_value("deep", deep), with_value("long", long_number)), encoding="utf-8")
    loaded = load_dialogs(path)
    assert [d.dialog_id for d in loaded] == ["deep", "long"]
    assert loaded.errors == ()


@pytest.mark.parametrize("key", ["metadata.score", "metadata.nested.x"])
@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_in_metadata_are_rejected(tmp_path: Path, key: str, literal: str) -> None:
    metadata = '{"score": ' + literal + "}" if key == "metadata.score" else '{"nested": {"x": ' + literal + "}}"
    line = '{"dialog_id": "m", "metadata": ' + metadata + ', "turns": ' + json.dumps(good("m")["turns"]) + "}"
    path = tmp_path / "set.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    code, out, _ = run("score", str(path), "--scorer", "exact")
    (record,) = records(out)  # never written out as bare NaN: the record is an error, valid JSON
    assert record["error"]["field"] == key
    assert code == 2


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_jsonl_splits_on_newline_only(tmp_path: Path, separator: str) -> None:
    inner = {**good("sep"), "metadata": {"note": f"a{separator}b"}}
    path = tmp_path / "set.jsonl"
    path.write_text(jsonl(good("a"), json.dumps(inner, ensure_ascii=False), good("b")), encoding="utf-8")
    loaded = load_dialogs(path)
    assert [d.dialog_id for d in loaded] == ["a", "sep", "b"]
    assert loaded[1].metadata["note"] == f"a{separator}b"
    code, out, _ = run("score", str(path), "--scorer", "exact")
    assert separator not in out  # escaped in the output, so a reader splitting on any line break cannot trip
    assert scored_ids(out) == ["a", "sep", "b"]
    assert code == 0


def test_a_crash_while_scoring_one_dialog_is_that_dialogs_error() -> None:
    class Exploding(TableScorer):
        def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
            if any("boom" in text for pair in pairs for text in pair):
                raise ValueError("scorer fell over")
            return super().similarities(pairs, kind)

    stream = io.StringIO(jsonl(good("a"), {**good("x"), "turns": [paired(1, reply("Hi."), reply("boom"))]}))
    chunk = list(iter_records("-", stdin=stream))
    options = EvalOptions(scorer="exact")
    out = list(score_chunk(chunk, options, make_comparator(options, scorer=Exploding())))
    assert not isinstance(out[0], InputError)
    assert out[0].dialog_id == "a"
    assert isinstance(out[1], InputError)
    assert out[1].location.dialog_id == "x"
    assert out[1].location.line == 2
    assert out[1].message == "could not be scored: ValueError: scorer fell over"
    assert out[1].location.file == "-"  # stdin


# --- output safety ---------------------------------------------------------------------------------------------------


def test_out_equal_to_an_input_is_refused_and_the_input_kept(tmp_path: Path) -> None:
    path = tmp_path / "v.json"
    original = json.dumps([good("a")])
    path.write_text(original, encoding="utf-8")
    code, out, err = run("score", str(path), "--scorer", "exact", "--out", str(tmp_path / "." / "v.json"))
    assert path.read_text(encoding="utf-8") == original
    assert "field '--out': is also an input" in err
    assert (code, out) == (2, "")


@pytest.mark.parametrize(
    ("target", "message"),
    [("missing/out.jsonl", "its folder"), ("adir", "is a folder")],
)
def test_unwritable_out_is_found_before_the_work(tmp_path: Path, target: str, message: str) -> None:
    (tmp_path / "adir").mkdir()
    path = tmp_path / "v.jsonl"
    path.write_text(jsonl(good("a")), encoding="utf-8")
    code, out, err = run("score", str(path), "--scorer", "exact", "--out", str(tmp_path / target))
    assert message in err
    assert "v.jsonl" not in err  # refused before any dialog was read
    assert (code, out) == (2, "")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write in a read-only folder")
def test_out_in_a_read_only_folder_is_found_before_the_work(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    path = tmp_path / "v.jsonl"
    path.write_text(jsonl(good("a")), encoding="utf-8")
    try:
        code, _, err = run("score", str(path), "--scorer", "exact", "--out", str(folder / "out.jsonl"))
    finally:
        folder.chmod(0o700)
    assert "cannot write in" in err
    assert code == 2


@pytest.mark.parametrize("fmt", ["jsonl", "json", "table"])
def test_out_is_written_whole_with_no_temporary_file_left(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "v.jsonl"
    path.write_text(jsonl(good("a"), good("b")), encoding="utf-8")
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    code, _, _ = run("score", str(path), "--scorer", "exact", "--out", str(target), "--format", fmt)
    text = target.read_text(encoding="utf-8")
    if fmt == "json":
        assert [r["dialog_id"] for r in json.loads(text)] == ["a", "b"]
    elif fmt == "jsonl":
        assert scored_ids(text) == ["a", "b"]
    else:
        assert text.endswith("2 dialogs scored, 2 pass, 0 fail, 0 not readable\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "v.jsonl"]
    assert code == 0


class Interrupting(io.StringIO):
    """stdin that gives its lines, then acts as if Ctrl-C were pressed while waiting for more."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_ctrl_c_keeps_what_was_done_and_exits_130(tmp_path: Path, fmt: str) -> None:
    target = tmp_path / "out.json"
    stdin = Interrupting(jsonl(good("a"), good("b"), good("c")))
    code, _, err = run("score", "-", "--scorer", "exact", "--out", str(target), "--format", fmt, stdin=stdin)
    text = target.read_text(encoding="utf-8")
    kept = [r["dialog_id"] for r in json.loads(text)] if fmt == "json" else scored_ids(text)
    # batches grow 1, 2, 4: "a" is scored alone; "b" and "c" make the second batch, also complete
    assert kept == ["a", "b", "c"]
    assert err == "aem-strands: interrupted; the records already written are kept\n"
    assert code == 130


class ClosedPipe(io.StringIO):
    """stdout whose reader goes away after the first line (``| head -1``)."""

    def write(self, text: str) -> int:
        if self.getvalue():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_a_closed_pipe_stops_quietly() -> None:
    stdin = io.StringIO(jsonl(*(good(f"d{i}") for i in range(20))))
    pipe = ClosedPipe()
    err = io.StringIO()
    code = main(["score", "-", "--scorer", "exact"], stdout=pipe, stderr=err, stdin=stdin)
    assert scored_ids(pipe.getvalue()) == ["d0"]
    assert (code, err.getvalue()) == (141, "")


# --- formats and stdin -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["set.ndjson", "set.JSONL", "set.txt", "set"])
def test_jsonl_is_recognised_by_suffix_or_content(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(jsonl(good("a"), good("b")), encoding="utf-8")
    assert [d.dialog_id for d in load_dialogs(path)] == ["a", "b"]


@pytest.mark.parametrize(
    "text",
    [jsonl(good("a"), good("b")), json.dumps([good("a"), good("b")], indent=2), json.dumps([good("a"), good("b")])],
)
def test_dash_reads_stdin_json_or_jsonl(text: str) -> None:
    code, out, _ = run("score", "-", "--scorer", "exact", stdin=io.StringIO(text))
    assert scored_ids(out) == ["a", "b"]
    assert code == 0


def test_jsonl_in_a_json_file_gets_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    path.write_text(jsonl(good("a"), good("b")), encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2: malformed JSON: Extra data at column 1 \(one dialog per line is"):
        load_dialogs(path)


# --- messages name file, line and element ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        (
            {**good("x"), "dialog_id": 7},
            "line 3, element [1], field 'dialog_id': dialog_id must be a non-empty string, got 7",
        ),
        (5, "line 3, element [1]: a dialog must be a JSON object or a list of turns, got int"),
        (
            {"dialog_id": "\x1b[2Kfake", "turns": []},
            "line 3, element [1], dialog '\\x1b[2Kfake', field 'turns': dialog has no turns",
        ),
    ],
)
def test_errors_in_a_json_array_name_line_and_element(tmp_path: Path, element: Any, expected: str) -> None:
    path = tmp_path / "set.json"
    path.write_text("[\n" + json.dumps(good("ok")) + ",\n" + json.dumps(element) + "\n]\n", encoding="utf-8")
    loaded = load_dialogs(path)
    assert [d.dialog_id for d in loaded] == ["ok"]
    (error,) = loaded.errors
    assert str(error) == f"file {path}, {expected}"


def test_a_broken_or_too_deep_array_element_keeps_the_others(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    deep = '{"dialog_id": "deep", "x": ' + "[" * 2000 + "]" * 2000 + "}"
    path.write_text(f"[{json.dumps(good('a'))},\n{deep},\n{json.dumps(good('b'))},\n{{broken\n]", encoding="utf-8")
    loaded = load_dialogs(path)
    assert [d.dialog_id for d in loaded] == ["a", "b"]
    assert [str(e).split(": ", 1)[1] for e in loaded.errors] == [
        f"nesting deeper than {MAX_DEPTH} levels (the limit)",
        "malformed JSON: Expecting property name enclosed in double quotes at column 2; "
        "the rest of the file could not be read",
    ]
    assert [(e.location.line, e.location.index) for e in loaded.errors] == [(2, 1), (4, 3)]


def test_syntax_errors_read_naturally(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(jsonl(good("a")) + '{"dialog_id": "x\n', encoding="utf-8")
    (error,) = load_dialogs(path).errors
    assert str(error) == f"file {path}, line 2: malformed JSON: Unterminated string starting at column 15"


@pytest.mark.parametrize("flag", ["--thresholds", "input"])
def test_binary_files_are_bad_input_naming_the_file(tmp_path: Path, flag: str) -> None:
    binary = tmp_path / "blob.json"
    binary.write_bytes(b"\xff\xfe\x00\x01binary")
    path = tmp_path / "v.jsonl"
    path.write_text(jsonl(good("a")), encoding="utf-8")
    argv = [str(path), "--thresholds", str(binary)] if flag == "--thresholds" else [str(binary)]
    code, _, err = run("score", *argv, "--scorer", "exact")
    assert f"file {binary}, line 1: " in err
    assert "binary file" in err
    assert code == 2


# --- terminal output -------------------------------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stdout", [io.StringIO, Terminal])
def test_control_characters_in_ids_and_values_cannot_rewrite_the_table(tmp_path: Path, stdout: type) -> None:
    hostile = "x\rFAKE: PASS \x1b[2K\u202e"
    dialog = {"dialog_id": hostile, "turns": [paired(1, reply("Hi."), reply(f"Bye {hostile}"))]}
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(dialog), encoding="utf-8")
    out = stdout()
    code, _, _ = run("score", str(path), "--scorer", "exact", "--format", "table", stdout=out)
    text = out.getvalue()
    assert "\r" not in text
    assert "\u202e" not in text
    assert "\x1b[2K" not in text
    assert "x\\rFAKE: PASS \\x1b[2K\\u202e" in text
    assert code == 1


# --- calibrate --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"gold": "a", "predicted": "a", "label": True}] * 3, "all 3 argument pair(s) are labelled equivalent"),
        ([{"gold": "a", "predicted": "b", "label": False}] * 3, "all 3 argument pair(s) are labelled not equivalent"),
        ([{"gold": "a", "predicted": "b", "label": True}], "all 1 argument pair(s) are labelled equivalent"),
    ],
)
def test_calibrate_needs_both_labels_and_writes_nothing_otherwise(
    tmp_path: Path, rows: list[dict[str, Any]], message: str
) -> None:
    pairs = tmp_path / "p.jsonl"
    pairs.write_text(jsonl(*rows), encoding="utf-8")
    config = tmp_path / "cfg.json"
    code, _, err = run("calibrate", "--pairs", str(pairs), "--scorer", "exact", "--write-config", str(config))
    assert message in err
    assert not config.exists()
    assert code == 2


def test_calibrate_binary_pairs_and_config_equal_to_pairs(tmp_path: Path) -> None:
    pairs = tmp_path / "p.jsonl"
    pairs.write_bytes(b"\xff\x00")
    code, _, err = run("calibrate", "--pairs", str(pairs), "--scorer", "exact")
    assert f"file {pairs}, line 1: --pairs: not UTF-8 text" in err
    assert code == 2
    code, _, err = run("calibrate", "--pairs", str(pairs), "--scorer", "exact", "--write-config", str(pairs))
    assert f"field '--write-config': is also an input (--pairs {pairs})" in err  # the check of every command
    assert code == 2


# --- compare ----------------------------------------------------------------------------------------------------------


def test_compare_keeps_one_line_per_pair_with_separators_surrogates_and_huge_numbers(tmp_path: Path) -> None:
    pairs = tmp_path / "p.jsonl"
    lines = [
        json.dumps({"gold": "a\u2028b", "predicted": "a\u2028b"}, ensure_ascii=False),
        '{"gold": "\\ud800", "predicted": "x"}',
        '{"gold": ' + "9" * 5000 + ', "predicted": 1}',
        json.dumps({"gold": "x", "predicted": "x"}),
    ]
    pairs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run("compare", "--pairs", str(pairs), "--scorer", "exact")
    rows = records(out)
    assert len(rows) == 4
    assert rows[0]["equivalent"] is True
    assert [r["error"]["line"] for r in rows[1:3]] == [2, 3]
    assert rows[3]["equivalent"] is True
    assert code == 2


def test_compare_out_equal_to_pairs_is_refused(tmp_path: Path) -> None:
    pairs = tmp_path / "p.jsonl"
    pairs.write_text(jsonl({"gold": "a", "predicted": "a"}), encoding="utf-8")
    code, _, err = run("compare", "--pairs", str(pairs), "--scorer", "exact", "--out", str(pairs))
    assert "is also an input" in err
    assert pairs.read_text(encoding="utf-8") == jsonl({"gold": "a", "predicted": "a"})
    assert code == 2


@pytest.mark.parametrize(("gold", "predicted"), [("open}", "closed}"), ("{a b", "{a c")])
def test_braces_in_argument_values_do_not_crash_the_comparison(gold: str, predicted: str) -> None:
    result = evaluate_dialog([paired(1, action("t", "A", x=gold), action("t", "A", x=predicted))], scorer="exact")
    assert result.turns[0].verdict.success is False
