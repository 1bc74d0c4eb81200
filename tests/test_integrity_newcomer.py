"""What a newcomer trips on (issue 21): gold that names only a sub-agent's outer call, a task's output as
the final reply, default thresholds stated in the docs, and the README's own examples.

Strands cases run real ``Agent``s on scripted models (``aem_strands.testing.ScriptedModel``) inside a
real ``Experiment``; nothing is mocked.
"""

from __future__ import annotations

import ast
import inspect
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from strands import Agent, tool
from strands_evals import Case, Experiment

from aem_strands import evaluate_dialogs, load_dialogs
from aem_strands.cli import main
from aem_strands.compare import load_thresholds
from aem_strands.options import EvalOptions
from aem_strands.strands import AemSessionEvaluator, CorrectnessCustomEvaluator, live_case, make_live_task
from aem_strands.strands.session import PredictedTurn, judged_sub_agents
from aem_strands.testing import ScriptedModel, ToolUse
from aem_strands.types import ActionCall, Reply
from tests.conftest import EXAMPLES, ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# --- agents as tools: the sub-agent's calls are judged only when gold names one of them ---------------


@tool
def search(query: str) -> str:
    """Search the sales archive."""
    return f"3M for {query}"


@tool
def lookup(region: str) -> str:
    """Look a region up."""
    return f"{region}: known region"


def build_writer() -> Agent:
    researcher = Agent(
        name="researcher",
        description="Finds sales figures",
        model=ScriptedModel([ToolUse("search", {"query": "EU sales 2024"}), "Sales were 3M."]),
        tools=[search],
        callback_handler=None,
    )
    script = [ToolUse("lookup", {"region": "EU"}), ToolUse("researcher", {"input": "EU sales 2024"}),
              "EU sales were 3M in 2024."]  # fmt: skip
    return Agent(name="writer", model=ScriptedModel(script), tools=[lookup, researcher.as_tool()],
                 callback_handler=None)  # fmt: skip


OUTER_ONLY_GOLD = [
    {"turn": "Tool", "tool_id": "lookup", "action": "lookup", "args": {"region": "EU"}},
    {"turn": "Tool", "tool_id": "researcher", "action": "researcher", "args": {"input": "EU sales 2024"}},
    {"turn": "Agent", "response": "EU sales were 3M in 2024."},
]


def run_nested(gold: list[dict[str, Any]], **options: Any) -> Any:
    case: Case[Any, Any] = live_case(gold, ["EU sales for 2024?"], name="nested")
    experiment = Experiment(cases=[case], evaluators=[AemSessionEvaluator(scorer="exact", **options)])
    return experiment.run_evaluations(make_live_task(build_writer)).detailed_results[0][0]


def test_gold_naming_only_the_outer_call_to_a_sub_agent_passes_by_default() -> None:
    row = run_nested(OUTER_ONLY_GOLD)
    assert (row.score, row.test_pass) == (1.0, True)  # 3 of 3 gold turns pass, nothing extra
    calls = [t.get("tool_id") for t in row.metadata["predicted_turns"]]
    assert calls == ["lookup", "researcher", None]  # the sub-agent's search is inside its one call


def test_gold_naming_a_call_inside_the_sub_agent_judges_the_sub_agents_calls() -> None:
    search_turn = {"turn": "Tool", "tool_id": "search", "action": "search", "args": {"query": "US sales 2024"}}
    row = run_nested([*OUTER_ONLY_GOLD[:2], search_turn, OUTER_ONLY_GOLD[2]])
    # 3 of 4 pass: the sub-agent searched "EU sales 2024" where gold says "US sales 2024"
    assert (row.score, row.test_pass, row.label) == (0.75, False, "inconsistent_parameter_values")
    assert [(t.get("tool_id"), t["agent"]) for t in row.metadata["predicted_turns"][:3]] == [
        ("lookup", None), ("researcher", None), ("search", "researcher")
    ]  # fmt: skip


def test_the_explicit_modes_still_do_what_they_say() -> None:
    inline = run_nested(OUTER_ONLY_GOLD, sub_agents="inline")
    # inline: the sub-agent's search is a turn gold does not have -> extra_turn; 3 of 4 turns pass
    assert (inline.score, inline.test_pass, inline.label) == (0.75, False, "extra_turn")
    search_turn = {"turn": "Tool", "tool_id": "search", "action": "search", "args": {"query": "EU sales 2024"}}
    opaque = run_nested([*OUTER_ONLY_GOLD[:2], search_turn, OUTER_ONLY_GOLD[2]], sub_agents="opaque")
    # opaque: the search is never a turn, so gold's search turn is missing; 3 of 4 pass
    assert (opaque.score, opaque.label) == (0.75, "missing_turn")


def call(name: str, agent: str | None = None) -> PredictedTurn:
    return PredictedTurn(ActionCall(name, name, {}), 1, agent=agent)


def gold_call(name: str) -> dict[str, Any]:
    return {"turn": "Tool", "tool_id": name, "action": name, "args": {}}


def test_a_tool_both_agents_call_judges_the_sub_agent_only_beyond_the_outer_agents_own_calls() -> None:
    turns = [call("lookup"), call("helper"), call("lookup", "helper"), PredictedTurn(Reply("ok"), 1)]
    assert judged_sub_agents(turns, [gold_call("lookup"), gold_call("helper")]) == frozenset()
    assert judged_sub_agents(turns, [gold_call("lookup"), gold_call("helper"), gold_call("lookup")]) == {"helper"}
    assert judged_sub_agents(turns, [{"turn": "Agent", "response": "lookup"}]) == frozenset()  # replies name no tool


def test_each_sub_agent_is_judged_on_its_own() -> None:
    turns = [call("a"), call("search", "a"), call("b"), call("fetch", "b")]
    assert judged_sub_agents(turns, [gold_call("a"), gold_call("search"), gold_call("b")]) == {"a"}


# --- a task's output is the final reply -----------------------------------------------------------------

HOST_GOLD = [{"name": "filter_data", "arguments": {"region": "EU"}}, "create_chart"]


def run_host_task(output: Any, trajectory: list[Any]) -> Any:
    case: Case[Any, Any] = Case(name="host", input="EU chart", expected_trajectory=HOST_GOLD,
                                expected_output="Your chart is ready.")  # fmt: skip
    report = Experiment(cases=[case], evaluators=[AemSessionEvaluator(scorer="exact")]).run_evaluations(
        lambda case: {"output": output, "trajectory": trajectory}
    )
    return report.detailed_results[0][0]


TOOL_TURNS = [
    {"turn": "Tool", "tool_id": "filter_data", "action": "filter_data", "args": {"region": "EU"}},
    {"turn": "Tool", "tool_id": "create_chart", "action": "create_chart", "args": {"chart_type": "bar"}},
]


def test_a_tasks_output_is_the_final_reply_of_a_trajectory_of_tool_turns() -> None:
    row = run_host_task("Your chart is ready.\n", TOOL_TURNS)
    assert (row.score, row.test_pass) == (1.0, True)  # 3 of 3: two calls and the reply
    assert [t["kind"] for t in row.metadata["turns"]] == ["action", "action", "response"]


def test_a_trajectory_that_already_ends_with_the_reply_gets_no_second_copy() -> None:
    row = run_host_task("Your chart is ready.", [*TOOL_TURNS, {"turn": "Agent", "response": "Your chart is ready."}])
    assert (row.score, row.test_pass, len(row.metadata["turns"])) == (1.0, True, 3)


def test_a_wrong_output_is_a_wrong_reply_not_a_missing_one() -> None:
    row = run_host_task("Sorry, the chart failed.", TOOL_TURNS)
    # "failed" against gold's "ready": a reply that contradicts gold, on gold's reply turn
    assert (row.test_pass, row.label) == (False, "inconsistent_response")
    assert [t["failure_reason"] for t in row.metadata["turns"]] == [None, None, "inconsistent_response"]


def test_without_an_output_the_reply_is_still_missing() -> None:
    row = run_host_task(None, TOOL_TURNS)
    assert (row.score, row.label) == (2 / 3, "missing_turn")  # two calls pass, gold's reply has no prediction


# --- default thresholds: every statement in README.md and docs/*.md is the code's value -----------------

NUMBER = r"\**(\d+(?:\.\d+)?)\**"
STATED_DEFAULTS: list[tuple[str, tuple[str, ...]]] = [
    # (pattern, the Thresholds field each captured number states)
    (rf"\barguments {NUMBER} \(floor {NUMBER}\)", ("argument", "argument_floor")),
    (rf"\breplies {NUMBER} \(floor {NUMBER}\)", ("response", "response_floor")),
    (rf"`threshold_args` \(default {NUMBER}\)", ("argument",)),
    (rf"`threshold_response` \(default {NUMBER}\b", ("response",)),
    (rf"\({NUMBER} / {NUMBER}, the calibrated `Thresholds\(\)`\)", ("argument", "response")),
    (rf"^\| argument values \| {NUMBER} \| {NUMBER} \|", ("argument", "argument_floor")),
    (rf"^\| replies \| {NUMBER} \| {NUMBER} \|", ("response", "response_floor")),
    (rf"reply threshold stays {NUMBER}", ("response",)),
    (rf"Threshold {NUMBER}; band floor {NUMBER}", ("response", "response_floor")),
    (rf"similarity an argument value needs \(default {NUMBER}\)", ("argument",)),
    (rf"similarity a reply needs \(default {NUMBER}\)", ("response",)),
]
BAND = re.compile(r"band \[(\d+(?:\.\d+)?), (\d+(?:\.\d+)?)\)")


def stated_thresholds(name: str, text: str) -> list[tuple[str, str, float]]:
    """``(where, field, value)`` for every default threshold the text states in one of the known forms."""
    found = []
    for pattern, fields in STATED_DEFAULTS:
        for match in re.finditer(pattern, text, flags=re.MULTILINE):
            line = text.count("\n", 0, match.start()) + 1
            found.extend((f"{name}:{line}", f, float(v)) for f, v in zip(fields, match.groups(), strict=True))
    return found


def test_every_default_threshold_the_docs_and_help_state_is_the_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code = EvalOptions.build().thresholds  # what `score`, `compare` and the Strands evaluators use
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    texts = {"score --help": " ".join(capsys.readouterr().out.split())}  # argparse wraps lines
    texts.update({str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in DOCS})
    stated = [s for name, text in texts.items() for s in stated_thresholds(name, text)]
    wrong = [f"{where}: {field} {value} (code: {getattr(code, field)})" for where, field, value in stated
             if value != getattr(code, field)]  # fmt: skip
    assert wrong == []
    # the test reads what newcomers read: each of these states the defaults at least once
    places = {where.rsplit(":", 1)[0] for where, _, _ in stated}
    assert {"README.md", "docs/STRANDS.md", "docs/EQUIVALENCE.md", "score --help"} <= places
    bands = [(m.group(0), float(m.group(1)), float(m.group(2))) for t in texts.values() for m in BAND.finditer(t)]
    allowed = {(code.argument_floor, code.argument), (code.response_floor, code.response)}
    assert bands  # uncertain bands quoted in details: [floor, threshold) of one kind
    assert [b for b in bands if (b[1], b[2]) not in allowed] == []


def test_the_shipped_thresholds_config_is_the_default() -> None:
    # docs/EQUIVALENCE.md: "Stored as a config in data/calibration/thresholds.json"
    assert load_thresholds(ROOT / "data" / "calibration" / "thresholds.json") == EvalOptions.build().thresholds


# --- the README's own examples and field lists -------------------------------------------------------------

README = ROOT / "README.md"


def readme_section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_readmes_bad_input_example_prints_what_the_readme_shows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    block = re.search(r"\*\*Bad input\*\*.*?```text\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert block is not None
    command, *shown = block.group(1).splitlines()
    words = shlex.split(command.removeprefix("$ "))
    assert words[0] == "aem-strands"
    assert ">" in words  # stdout (the records) goes to a file; what is shown is stderr
    argv = words[1 : words.index(">")]
    monkeypatch.chdir(ROOT)  # the message names the path as given, relative to the checkout
    assert main([*argv, "--out", str(tmp_path / "results.jsonl")]) == 2  # exit 2: bad input, the rest scored
    assert capsys.readouterr().err.splitlines() == shown


def documented_fields(table: str) -> set[str]:
    """The backticked names in the first column of a markdown table."""
    names: set[str] = set()
    for row in table.splitlines():
        if row.startswith("| `"):
            names.update(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    return names


def test_readmes_output_tables_list_exactly_the_fields_of_a_record() -> None:
    section = readme_section("Output")
    dialog_table, turn_table = section.split("Per turn:")
    records = [r.to_dict() for r in evaluate_dialogs(load_dialogs(EXAMPLES / "data" / "sales_report.json"),
                                                     scorer="exact")]  # fmt: skip
    records += [r.to_dict() for r in evaluate_dialogs(load_dialogs(EXAMPLES / "data" / "travel_dataset.jsonl"),
                                                      scorer="exact")]  # fmt: skip
    assert documented_fields(dialog_table) == set(records[0])
    assert all(set(r) == set(records[0]) for r in records)
    turn_keys = {key for r in records for turn in r["turns"] for key in turn}
    always = set.intersection(*(set(turn) for r in records for turn in r["turns"]))
    documented = documented_fields(turn_table)
    assert turn_keys <= documented  # nothing a record holds is left out
    assert {"status", "explanation"} <= set(records[0])
    assert {"decisions"} <= always
    optional = {"matched_predicted_turn_no", "note", "critical", "weight", "latency_ms"}
    assert documented - always == optional  # the rest is in every turn record


def test_readme_and_docs_construct_the_correctness_evaluator_with_its_real_defaults() -> None:
    defaults = {k: p.default for k, p in inspect.signature(CorrectnessCustomEvaluator.__init__).parameters.items()}
    shown = 0
    for path in DOCS:
        for match in re.finditer(r"CorrectnessCustomEvaluator\(([^)`]*)\)", path.read_text(encoding="utf-8")):
            call = ast.parse(f"f({match.group(1)})", mode="eval").body
            assert isinstance(call, ast.Call)
            for keyword in call.keywords:
                assert keyword.arg in defaults, f"{path.name}: no parameter {keyword.arg!r}"
                assert ast.literal_eval(keyword.value) == defaults[keyword.arg], f"{path.name}: {keyword.arg}"
            shown += 1
    assert shown >= 2  # README.md and docs/STRANDS.md name it with its defaults


# --- `make test` changes nothing on the system -----------------------------------------------------------

SYSTEM_INSTALLERS = ("apt-get", "apt", "dpkg", "sudo", "yum", "dnf", "apk", "brew")


def make_recipe(target: str) -> list[str]:
    """The recipe lines of ``target`` in the Makefile and of the targets it depends on (by name)."""
    rules: dict[str, tuple[list[str], list[str]]] = {}
    current: list[str] | None = None
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        rule = re.match(r"^([\w$().-][^:=]*):(?!=)(.*)$", line)
        if rule and not line.startswith("\t"):
            current = []
            for name in rule.group(1).split():
                rules[name] = (rule.group(2).split(), current)
        elif line.startswith("\t") and current is not None:
            current.append(line.strip())
    seen, lines, todo = set(), [], [target]
    while todo:
        name = todo.pop()
        if name in seen or name not in rules:
            continue
        seen.add(name)
        prerequisites, recipe = rules[name]
        lines += recipe
        todo += [p.replace("$(BIN)", ".venv/bin") for p in prerequisites]
    return lines


def test_make_test_and_the_test_suite_install_nothing_on_the_system() -> None:
    recipe = make_recipe("test")
    assert any("pytest" in line for line in recipe)  # the recipe was found
    assert [line for line in recipe if set(re.findall(r"[\w-]+", line)) & set(SYSTEM_INSTALLERS)] == []
    calls = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path == Path(__file__):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in SYSTEM_INSTALLERS:
                calls.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert calls == []  # no test runs a system package manager


def test_the_browser_tests_are_opt_in_through_one_documented_command() -> None:
    assert any("apt-get install" in line for line in make_recipe("browser-test"))  # installs only when asked
    assert "make browser-test" in readme_section("Two commands")
