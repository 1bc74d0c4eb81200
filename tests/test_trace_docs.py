"""docs/TRAJECTORY.md says what the code does: its example runs print what the CLI prints now, its YAML blocks
read as the schema it documents (the complete policy equals examples/data/traces/policy_full.yaml), its Python
example prints what it shows; and the trace benchmark runs (on a handful of traces: no speed is asserted)."""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import re
import shlex
from typing import Any

import pytest
import yaml

from aem_strands.cli import main
from aem_strands.trace.load import parse_trace
from aem_strands.trace.policy import environment_from_json, load_policy
from aem_strands.trace.types import Dimension
from tests.conftest import EXAMPLES, ROOT

DOC = ROOT / "docs" / "TRAJECTORY.md"
FULL_POLICY = EXAMPLES / "data" / "traces" / "policy_full.yaml"


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def fenced(language: str) -> list[str]:
    """The bodies of the doc's fenced blocks in ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", doc_text(), flags=re.DOTALL | re.MULTILINE)


def run_cli(command: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Exit code and stdout of a documented ``aem-strands ...`` command line, run from the checkout."""
    words = shlex.split(command.removeprefix("$ "))
    assert words[0] == "aem-strands"
    monkeypatch.chdir(ROOT)  # the doc's paths are relative to the checkout
    out = io.StringIO()
    code = main(words[1:], stdout=out, stderr=io.StringIO())
    return code, out.getvalue()


# --- the example runs ------------------------------------------------------------------------------------------


def test_the_documented_table_run_prints_what_the_doc_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    block = next(b for b in fenced("text") if b.startswith("$ aem-strands trace") and "--format table" in b)
    command, *rest = block.splitlines()
    split = rest.index("$ echo $?")
    shown, exit_code = rest[:split], rest[split + 1 :]
    code, printed = run_cli(command, monkeypatch)
    # Trailing blanks are invisible in the doc (`n/a ` is padded by the table): compare lines without them.
    assert [line.rstrip() for line in printed.splitlines()] == [line.rstrip() for line in shown]
    assert [str(code)] == exit_code == ["1"]  # refund-no-identity fails planning: exit 1


def test_the_documented_jsonl_record_is_what_the_cli_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    command = next(b for b in fenced("text") if b.startswith("$ aem-strands trace") and "--format jsonl" in b)
    cli_part = command.strip().split(" | ")[0]
    code, printed = run_cli(cli_part, monkeypatch)
    records = [json.loads(line) for line in printed.splitlines()]
    shown = json.loads(fenced("json")[0])
    assert code == 1  # the ungrounded order id fails arguments (and state, downstream)
    assert records == [shown]


# --- the schema and the policy ---------------------------------------------------------------------------------


def yaml_blocks() -> list[Any]:
    return [yaml.safe_load(b) for b in fenced("yaml")]


def test_the_complete_policy_block_equals_the_example_file() -> None:
    policies = [b for b in yaml_blocks() if isinstance(b, dict) and "trace_id" not in b]
    assert len(policies) == 1  # one complete policy block
    (block,) = policies
    documented = environment_from_json(block, "docs/TRAJECTORY.md")
    shipped = load_policy(FULL_POLICY)
    assert documented == shipped
    assert block == yaml.safe_load(FULL_POLICY.read_text(encoding="utf-8"))  # the same text, comments aside
    # "complete": every key of the format is set, and every hint of the tools appears
    assert set(block) == {"tools", "permissions", "destructive_tools", "untrusted_tools", "rules", "budgets",
                          "expected_final_state"}  # fmt: skip
    assert set(block["rules"]) == {"ordering", "handoff", "tool_selection", "sensitive_data"}
    assert set(block["budgets"]) == {"max_steps", "max_tool_calls", "max_identical_calls", "max_retries",
                                     "max_latency_ms", "max_tokens", "max_cost_usd"}  # fmt: skip
    hints = {h for d in shipped.tools.definitions for h in ("read_only", "destructive", "idempotent") if getattr(d, h)}
    assert hints == {"read_only", "destructive", "idempotent"}
    assert shipped.denied_tools == {"delete_account"}
    assert shipped.destructive_tools == {"cancel_order"}
    # cancel_order has no destructiveHint (Strands spec form): it is destructive through destructive_tools
    assert next(d for d in shipped.tools.definitions if d.name == "cancel_order").destructive is None


def test_the_documented_trace_uses_every_field_and_loads() -> None:
    traces = [b for b in yaml_blocks() if isinstance(b, dict) and "trace_id" in b]
    assert len(traces) == 1
    (raw,) = traces
    trace = parse_trace(raw)
    assert set(raw) == {"trace_id", "case_id", "goal", "initial_state", "environment", "steps", "final_response",
                        "final_state", "metrics", "evaluation"}  # fmt: skip
    step_fields = {key for step in raw["steps"] for key in step}
    assert step_fields == {"step_id", "action_type", "tool_name", "arguments", "observation", "content",
                           "state_before", "state_after", "error", "latency_ms", "cost"}  # fmt: skip
    assert trace.gold is not None
    assert trace.gold.expected_tools == ("verify_identity", "get_refund_status")
    assert trace.evaluation["reviewer"] == "ops-team"  # an own label is kept
    assert trace.environment is not None
    assert trace.environment.budgets.max_steps == 10
    assert trace.steps[2].cost is not None
    assert trace.steps[2].cost.usd == 0.004


def documented_table(heading: str) -> str:
    text = doc_text()
    start = text.index(f"\n{heading}\n")
    return text[start : text.index("\n\n", text.index("|---", start))]


def test_the_dimension_table_lists_every_dimension_its_gate_and_the_rules_the_checks_name() -> None:
    table = documented_table("## The nine dimensions").split("|---", 1)[1]
    rows = {m.group(1): line for line in table.splitlines() if (m := re.match(r"\| `(\w+)` \|", line))}
    assert list(rows) == [d.value for d in Dimension]
    from aem_strands.trace.types import GATES

    for dimension, row in rows.items():
        assert row.split("|")[2].strip().strip("*") == GATES[Dimension(dimension)].value
    # every rule name a check can give is documented in its row (read from the check modules' sources)
    for dimension in Dimension:
        source = (ROOT / "aem_strands" / "trace" / "checks" / f"{dimension.value}.py").read_text(encoding="utf-8")
        if dimension is Dimension.SAFETY:
            source += (ROOT / "aem_strands" / "trace" / "pii.py").read_text(encoding="utf-8")
            source += (ROOT / "aem_strands" / "trace" / "checks" / "untrusted.py").read_text(encoding="utf-8")
        if dimension is Dimension.TOOL_SELECTION:  # with gold, score's engine names the findings
            source += (ROOT / "aem_strands" / "trace" / "checks" / "gold_calls.py").read_text(encoding="utf-8")
        named = set(re.findall(rf'"({dimension.value}\.[a-z_]+)"', source))
        documented = set(re.findall(rf"`({dimension.value}\.[a-z_]+)`", rows[dimension.value]))
        assert named, dimension.value  # the check names its rules in quotes
        assert named == documented, dimension.value


# --- the Python example ------------------------------------------------------------------------------------------


def test_the_python_api_example_prints_what_the_doc_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    text = doc_text()
    section = text[text.index("## Python API") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    shown = re.search(r"prints\n\n```text\n(.*?)```", section, re.DOTALL)
    assert code is not None
    assert shown is not None
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), "docs/TRAJECTORY.md", "exec"), {})  # the doc's own example
    assert out.getvalue() == shown.group(1)


def test_the_redaction_example_shows_what_the_redactor_gives() -> None:
    block = next(b for b in fenced("python") if b.startswith(">>> "))
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.REPORT_NDIFF)
    test = parser.get_doctest(block, {}, "docs/TRAJECTORY.md redaction", "docs/TRAJECTORY.md", 0)
    assert len(test.examples) == 4  # the import, the redactor, two redactions
    result = runner.run(test)
    assert (result.failed, result.attempted) == (0, 4)


# --- the benchmark -----------------------------------------------------------------------------------------------


def test_the_trace_benchmark_prints_traces_per_second_and_a_line_per_dimension(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import trace_benchmark

    assert trace_benchmark.main(["--traces", "20"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^whole evaluation, records redacted .* = \d+\.\d traces/s$", out, re.MULTILINE)
    assert re.search(r"^whole evaluation, records kept .* = \d+\.\d traces/s$", out, re.MULTILINE)
    for name in [*(d.value for d in Dimension), "diagnosis", "redaction"]:
        assert re.search(rf"^  \w+ +{name} +\d+\.\d+ s +\d+\.\d+ ms/trace +\d+\.\d%$", out, re.MULTILINE), name


def test_the_benchmark_generates_the_same_traces_from_the_same_seed() -> None:
    import trace_benchmark

    first, again = trace_benchmark.generate_traces(50, seed=3), trace_benchmark.generate_traces(50, seed=3)
    assert first == again
    assert {story for story, _ in trace_benchmark.generate_traces(200, seed=0)} == set(trace_benchmark.STORIES)
    lengths = [len(t.steps) for _, t in first]
    assert min(lengths) >= trace_benchmark.MIN_STEPS
    assert max(lengths) <= trace_benchmark.MAX_STEPS


def test_each_benchmark_story_gives_the_failure_it_is_named_for() -> None:
    import trace_benchmark

    from aem_strands.trace.evaluate import evaluate_trace

    policy = load_policy(trace_benchmark.POLICY)
    expected = {
        "clean_refund_status": set(),
        "refund_without_identity": {"planning.order"},
        "cancel_without_consent": {"safety.destructive_without_consent"},
        "looped_lookup": {"necessity.repeated_call"},
        "timeout_hidden": {"recovery.reported_success_after_error"},
        "contradicts_observation": {"result_use.contradicts_observation"},
        "ungrounded_id": {"arguments.ungrounded"},
    }
    seen: set[str] = set()
    for story, trace in trace_benchmark.generate_traces(60, seed=1):
        result = evaluate_trace(trace, policy=policy)
        counted = {f.rule for d, v in result.dimensions.items() if d is not Dimension.COST for f in v.findings}
        assert expected[story] <= counted, (story, counted)
        assert result.test_pass is (story == "clean_refund_status"), (story, counted)
        seen.add(story)
    assert seen == set(expected)


def test_the_doc_states_the_benchmark_command_it_quotes() -> None:
    speed = doc_text().split("## Speed", 1)[1]
    assert ".venv/bin/python benchmarks/trace_benchmark.py --traces" in speed
    assert re.search(r"\d traces/s", speed)
