"""Issue 29, "Parsing that fails alone": hostile YAML (an alias bomb, a cycle, deep nesting, a huge integer) in a
trace, policy or gold file is one named error of its trace or file, with the limits and messages of JSON input;
the other traces of the run are still judged, and the run exits 2, never 3."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from aem_strands.cli import main
from aem_strands.decode import MAX_DEPTH, MAX_NUMBER_CHARS
from aem_strands.errors import ConfigError, InputError
from aem_strands.trace.load import iter_traces, load_trace_gold
from aem_strands.trace.policy import load_policy
from aem_strands.trace.types import Trace
from aem_strands.trace.yaml_limits import MAX_ALIAS_SIZE, load_one

STEPS = "steps:\n  - {action_type: user, content: hi}\n  - {action_type: response, content: hello}\n"


def bomb(indent: str) -> str:
    """Nine levels of anchors, each a list of nine aliases of the one before (538 bytes as a trace file): expanded,
    9**9 = 387,420,489 strings."""
    lines = [f"{indent}a0: &a0 [x, x, x, x, x, x, x, x, x]\n"]
    lines += [f"{indent}a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 9)]
    return "".join(lines)


def trace_yaml(trace_id: str, metrics: str = "") -> str:
    return f"trace_id: {trace_id}\n{STEPS}" + (f"metrics:\n{metrics}" if metrics else "")


def trace_json(trace_id: str, metrics: str) -> str:
    steps = [{"action_type": "user", "content": "hi"}, {"action_type": "response", "content": "hello"}]
    return '{"trace_id": "' + trace_id + '", "steps": ' + json.dumps(steps) + ', "metrics": ' + metrics + "}\n"


def run(*argv: str | Path) -> tuple[int, list[dict[str, object]], str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["trace", *(str(a) for a in argv), "--format", "jsonl", "--keep-pii", "--scorer", "exact"],
                stdout=out, stderr=err)  # fmt: skip
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def errors_of(path: Path) -> list[InputError]:
    return [e for e in iter_traces(path) if isinstance(e, InputError)]


def test_an_alias_bomb_is_its_traces_error_and_the_other_traces_are_judged(tmp_path: Path) -> None:
    bombed = tmp_path / "bomb.yaml"
    bombed.write_text(trace_yaml("bomb", bomb("  ")), encoding="utf-8")
    assert len(bombed.read_bytes()) < 600  # a small file: the cost is in the expansion, not the reading
    before = tmp_path / "before.yaml"
    before.write_text(trace_yaml("before"), encoding="utf-8")
    (tmp_path / "after.yaml").write_text(trace_yaml("after"), encoding="utf-8")
    started = time.perf_counter()
    code, records, err = run(before, bombed, tmp_path / "after.yaml")
    assert time.perf_counter() - started < 30  # unbounded: 2.8 GB and minutes, then MemoryError
    assert code == 2
    judged = [r["trace_id"] for r in records if "error" not in r]
    assert judged == ["before", "after"]
    bad = [r["error"] for r in records if "error" in r]
    assert bad[0]["file"] == str(bombed)
    assert bad[0]["trace_id"] == "bomb"
    # Sizes (one a node, plus its characters): a0 1 + 9 * (1 + 1) = 19, a1 1 + 9 * 19 = 172, a2 1549, a3 13,942,
    # a4 125,479. Repeated by aliases before a5: 9 * (19 + 172 + 1549 + 13,942) = 141,138; each *a4 of a5 adds
    # 125,479, so the 7th (a5[6]) passes 1,000,000: 141,138 + 7 * 125,479 = 1,019,491.
    assert bad[0]["field"] == "metrics.a5[6]"
    assert "YAML aliases repeat more than 1,000,000" in str(bad[0]["message"])
    assert "alias *a4 (line 11)" in str(bad[0]["message"])
    assert "bomb.yaml" in err


def test_aliases_within_the_limits_expand_as_written(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(trace_yaml("ok", "  base: &b {currency: EUR, amount: 5}\n  again: *b\n  list: [*b, *b]\n"))
    (loaded,) = list(iter_traces(path))
    assert isinstance(loaded, Trace)
    expected = {"currency": "EUR", "amount": 5}
    assert loaded.metrics == {"base": expected, "again": expected, "list": [expected, expected]}


def test_the_alias_budget_counts_nodes_and_characters() -> None:
    # a string of 1,000 characters is 1 + 1,000 = 1,001; 999 aliases of it repeat 999,999 (within 1,000,000),
    # 1,000 aliases 1,001,000 (beyond)
    text = "x" * 1_000
    within = load_one(f"a: &a {text}\nb: [{', '.join(['*a'] * 999)}]\n")
    assert within["b"] == [text] * 999
    beyond = load_one(f"a: &a {text}\nb: [{', '.join(['*a'] * 1_000)}]\n")
    assert 999 * 1_001 <= MAX_ALIAS_SIZE < 1_000 * 1_001
    assert [type(v).__name__ for v in beyond["b"][-2:]] == ["str", "BadValue"]


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_a_policy_or_gold_file_with_an_alias_bomb_is_bad_input_naming_the_file(tmp_path: Path, suffix: str) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text("expected_final_state:\n" + bomb("  "), encoding="utf-8")
    gold = tmp_path / "gold.yaml"
    gold.write_text("t:\n  expected_final_state:\n" + bomb("    "), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"policy file .*policy\.yaml: field 'expected_final_state\.a5\[6\]'"):
        load_policy(policy)
    with pytest.raises(ConfigError, match=r"gold file .*gold\.yaml: field 't\.expected_final_state\.a5\[6\]'"):
        load_trace_gold(gold)
    traces = tmp_path / f"t{suffix}"
    traces.write_text(trace_yaml("t") if suffix == ".yaml" else trace_json("t", "{}"), encoding="utf-8")
    code, records, err = run(traces, "--policy", policy)
    assert (code, records) == (2, [])
    assert "policy file" in err
    assert "policy.yaml" in err
    assert "alias" in err
    code, records, err = run(traces, "--gold", gold)
    assert (code, records) == (2, [])
    assert "gold file" in err
    assert "gold.yaml" in err
    # the same policy and gold without the bomb: the trace is judged
    policy.write_text("expected_final_state: {}\n", encoding="utf-8")
    gold.write_text("t:\n  expected_final_response: hello\n", encoding="utf-8")
    code, records, _ = run(traces, "--policy", policy, "--gold", gold)
    assert code != 2
    assert [r["trace_id"] for r in records] == ["t"]


HOSTILE = {
    "a cycle": ("&a [*a]", None),
    "3,000 levels of nesting": ("[" * 3000 + "]" * 3000, "[" * 3000 + "]" * 3000),
    "a 5,000-digit integer": ("9" * 5000, "9" * 5000),
    "a float with more digits than a float keeps": ("0.12345678901234567891", "0.12345678901234567891"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_yaml_is_one_traces_error_with_the_message_json_gives(tmp_path: Path, case: str) -> None:
    as_yaml, as_json = HOSTILE[case]
    path = tmp_path / "t.yaml"
    path.write_text(trace_yaml("hostile", f"  x: {as_yaml}\n") + "---\n" + trace_yaml("next"), encoding="utf-8")
    started = time.perf_counter()
    items = list(iter_traces(path))
    assert time.perf_counter() - started < 10  # PyYAML's scanner alone took 15 s over 3,000 levels of "["
    assert [type(i).__name__ for i in items] == ["InputError", "Trace"]  # the next document still loads
    error = items[0]
    assert isinstance(error, InputError)
    assert (error.location.file, error.location.trace_id) == (str(path), "hostile")
    if as_json is None:
        assert error.message == "YAML alias *a (line 6) stands inside the value it names (a cycle)"
        assert error.location.field == "metrics.x[0]"
    else:
        twin = tmp_path / "t.json"
        twin.write_text(trace_json("hostile", '{"x": ' + as_json + "}"), encoding="utf-8")
        (json_error,) = errors_of(twin)
        assert error.message == json_error.message
    code, records, _ = run(path)
    assert code == 2
    assert [r.get("trace_id") for r in records] == [None, "next"]


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2])
@pytest.mark.parametrize("listed", [False, True])
def test_yaml_and_json_draw_the_nesting_line_at_the_same_depth(tmp_path: Path, depth: int, listed: bool) -> None:
    # The trace is level 0, metrics level 1; x, `depth - 2` nested lists, puts the innermost at level
    # 2 + (depth - 2) - 1 = depth - 1. JSON allows containers up to level MAX_DEPTH - 1: depth MAX_DEPTH is the
    # deepest allowed.
    inner = "[" * (depth - 2) + "]" * (depth - 2)
    as_yaml = trace_yaml("d", f"  x: {inner}\n")
    if listed:  # a YAML list of traces: each trace one level deeper in its document, the same level in its record
        as_yaml = "- " + as_yaml.replace("\n", "\n  ").rstrip() + "\n"
    path = tmp_path / "t.yaml"
    path.write_text(as_yaml, encoding="utf-8")
    twin = tmp_path / "t.json"
    twin.write_text(trace_json("d", '{"x": ' + inner + "}"), encoding="utf-8")
    yaml_errors, json_errors = errors_of(path), errors_of(twin)
    assert [e.message for e in yaml_errors] == [e.message for e in json_errors]
    assert bool(yaml_errors) is (depth > MAX_DEPTH)


def test_a_yaml_number_is_read_as_json_reads_it() -> None:
    loaded = load_one("a: 1_000\nb: 0x1F\nc: 1.5\nd: .5\ne: 1234567890123456789.0\nf: 2024-13-45\ng: 2024-05-01\n")
    assert loaded["a"] == 1000
    assert (loaded["b"], loaded["c"], loaded["d"]) == (31, 1.5, 0.5)
    assert loaded["e"] == 1234567890123456789  # whole: the integer, as JSON gives it (a float would round it)
    assert loaded["f"] == "2024-13-45"  # no date: its text (PyYAML raised ValueError: the run ended, exit 3)
    assert str(loaded["g"]) == "2024-05-01"
    assert type(load_one("x: " + "9" * MAX_NUMBER_CHARS)["x"]) is int
    assert type(load_one("x: " + "9" * (MAX_NUMBER_CHARS + 1))["x"]).__name__ == "BadValue"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("expected_final_state: " + "[" * 3000 + "]" * 3000, "nesting deeper than 100 levels"),
        ("budgets: {max_steps: " + "9" * 5000 + "}", "field 'budgets.max_steps': number literal of 5,000"),
        ("expected_final_state: &a {x: *a}", "a cycle"),
        ("expected_final_state: {when: 2024-13-45}\nbudgets: {max_steps: x}", "field 'budgets.max_steps'"),
        ("tools: [{name: a}, {name: a}]", "tools: tool 'a' is defined more than once"),
        ("budgets: [\n", "line 3: not YAML"),  # the stream ends at line 3, the list still open
    ],
)
def test_a_bad_policy_file_is_bad_input_naming_the_file(tmp_path: Path, text: str, found: str) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(text + "\n", encoding="utf-8")
    traces = tmp_path / "t.yaml"
    traces.write_text(trace_yaml("t"), encoding="utf-8")
    code, records, err = run(traces, "--policy", policy)
    assert (code, records) == (2, [])
    assert f"policy file {policy}" in err
    assert found in err
    assert "runtime error" not in err


@pytest.mark.parametrize(
    ("flag", "text", "found"),
    [
        ("--tools", '[{"name": "a", "x": ' + "9" * 5000 + "}]", "field '[0].x': number literal of 5,000"),
        ("--tools", "[" * 3000 + "]" * 3000, "nesting deeper than 100 levels"),
        ("--thresholds", '{"thresholds": {"argument": ' + "9" * 5000 + "}}", "number literal of 5,000"),
        ("--thresholds", '{"thresholds": ' + "[" * 3000 + "]" * 3000 + "}", "nesting deeper than 100 levels"),
    ],
)
def test_a_tools_or_thresholds_file_beyond_the_limits_is_bad_input(
    tmp_path: Path, flag: str, text: str, found: str
) -> None:
    given = tmp_path / "given.json"
    given.write_text(text, encoding="utf-8")
    traces = tmp_path / "t.yaml"
    traces.write_text(trace_yaml("t"), encoding="utf-8")
    code, records, err = run(traces, flag, given)
    assert (code, records) == (2, [])  # was 3: ValueError (4,300 digits) or RecursionError
    assert str(given) in err
    assert found in err
