"""The real-data trace benchmark runs from a fresh clone: its sets build, and it prints every section.

The figures themselves are measured by ``benchmarks/trace_realdata.py`` and reported in docs/TRAJECTORY.md;
nothing here asserts a rate. SGD, ToolTalk and API-Bank are read from ``../shared/external_data``: the parts that need
them skip without it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from aem_bench.adversarial import POLICY, cases  # noqa: E402
from aem_bench.apibank import APIBANK_DIR, apibank_traces  # noqa: E402
from aem_bench.trace_faults import FAULTS, Pools, asked_by_labels  # noqa: E402
from aem_bench.trace_sets import (  # noqa: E402
    SGD_DIR,
    TOOLTALK_DIR,
    sgd_traces,
    split_of,
    tooltalk_traces,
)

from aem_strands.trace.load import parse_trace  # noqa: E402
from aem_strands.trace.policy import environment_from_json, load_policy  # noqa: E402
from aem_strands.trace.types import Dimension  # noqa: E402

needs_sgd = pytest.mark.skipif(not (SGD_DIR / "test_schema.json").exists(), reason="needs ../shared SGD test")
needs_tooltalk = pytest.mark.skipif(not (TOOLTALK_DIR / "tooltalk").is_dir(), reason="needs ../shared ToolTalk")
needs_apibank = pytest.mark.skipif(
    not (APIBANK_DIR / "level-1-api.json.gz").exists(), reason="needs ../shared API-Bank"
)


def test_split_halves_ids_deterministically() -> None:
    ids = [f"1_{n:05d}" for n in range(200)]
    halves = [split_of(i) for i in ids]
    assert halves == [split_of(i) for i in ids]
    # Hand check: about half each way (a SHA-1 byte's parity); 200 ids give between 70 and 130 of each.
    assert 70 <= halves.count("tuning") <= 130


@needs_sgd
def test_sgd_dialogues_load_as_traces_with_their_catalog() -> None:
    raw = next(iter(sgd_traces(limit=1)))
    trace = parse_trace(raw)
    assert trace.trace_id == "sgd-1_00000"
    tools = {t["name"]: t["annotations"] for t in raw["environment"]["tools"]}
    assert tools["ReserveRestaurant"] == {"readOnlyHint": False, "destructiveHint": True}
    assert tools["FindRestaurants"]["readOnlyHint"] is True
    assert trace.initial_state == {"today": "2019-03-01"}


@needs_tooltalk
def test_tooltalk_conversations_load_as_traces() -> None:
    traces = [parse_trace(raw) for raw in tooltalk_traces()]
    assert len(traces) == 78  # 50 conversations of tooltalk/ and 28 of easy/
    assert all(t.tool_calls() for t in traces)


def test_apibank_converter_on_a_written_folder(tmp_path: Path) -> None:
    """Without ../shared: four item files written here, one dialogue with a quoted list, a text result and a
    result holding ']->'; the response item's input is the longest and its expected reply ends the trace."""
    import gzip

    docs = json.dumps({
        "name": "AddMeeting", "description": "Adds a meeting.",
        "input_parameters": {"topic": {"type": "str", "description": "The topic."},
                             "attendees": {"type": "list(str)", "description": "Who comes."}},
        "output_parameters": {"status": {"type": "str", "description": "success or failed"}},
    })  # fmt: skip
    instruction = f"Generate an API request.\nThe current year is 2023.\nAPI descriptions:\n{docs}"
    history = "User: Book 'Plan' with Ann and Bo.\nAI: Booking.\n"
    call = "API-Request: [AddMeeting(topic='Plan', attendees='['Ann', 'Bo']')]"
    items = {
        "level-1-api": [{"file": "AddMeeting-level-1-1.jsonl", "id": 0, "instruction": instruction,
                         "input": history + "Generate API Request:\n", "expected_output": call}],
        "level-1-response": [{"file": "AddMeeting-level-1-1.jsonl", "id": 1, "instruction": instruction,
                              "input": history + call + "->success ]-> done\nGenerate AI Response:\n",
                              "expected_output": "The meeting is booked."}],
        "level-2-api": [],
        "level-2-response": [],
    }  # fmt: skip
    for name, content in items.items():
        with gzip.open(tmp_path / f"{name}.json.gz", "wt", encoding="utf-8") as handle:
            json.dump(content, handle)
    (raw,) = list(apibank_traces(tmp_path))
    assert raw["trace_id"] == "apibank-AddMeeting-level-1-1"
    assert raw["initial_state"] == {"current_year": 2023}
    assert [s["action_type"] for s in raw["steps"]] == ["user", "response", "tool_call", "response"]
    step = raw["steps"][2]
    assert (step["tool_name"], step["arguments"]) == ("AddMeeting", {"topic": "Plan", "attendees": ["Ann", "Bo"]})
    assert step["observation"] == "success ]-> done"  # split at the first ']->' that closes a call; text kept
    assert raw["steps"][3]["content"] == "The meeting is booked."
    (tool,) = raw["environment"]["tools"]
    assert tool["inputSchema"]["properties"]["attendees"] == {
        "type": "array",
        "items": {"type": "string"},
        "description": "Who comes.",
    }
    assert tool["description"] == "Adds a meeting. Returns: status (str): success or failed"
    assert "annotations" not in tool
    assert "required" not in tool["inputSchema"]
    parse_trace(raw)


@needs_apibank
def test_apibank_builds_every_dialogue_file() -> None:
    raws = list(apibank_traces())
    traces = [parse_trace(raw) for raw in raws]
    # 212 dialogue files in level 1's items and 49 in level 2's, none in both
    assert len(traces) == 261
    assert len({t.trace_id for t in traces}) == 261
    halves = [split_of(str(raw["case_id"])) for raw in raws]
    assert {raw["trace_id"] for raw in apibank_traces(split="tuning")} == {
        raw["trace_id"] for raw, half in zip(raws, halves, strict=True) if half == "tuning"
    }
    # 508 calls: 507 API-Request lines in the longest inputs and one expected request ending a file
    assert sum(len(t.tool_calls()) for t in traces) == 508
    assert all(t.initial_state == {"current_year": 2023} for t in traces)


@needs_apibank
def test_apibank_dialogue_steps_and_call_field_by_field() -> None:
    raw = next(
        r for r in apibank_traces() if r["case_id"] == "ModifyRegistration-QueryHealthData-CancelRegistration-level-2-2"
    )
    assert raw["trace_id"] == "apibank-ModifyRegistration-QueryHealthData-CancelRegistration-level-2-2"
    kinds = [step["action_type"] for step in raw["steps"]]
    # 3 exchanges: user, AI, user, AI, call, AI reply; the last reply is the response item's expected output
    assert kinds == ["user", "response", "user", "response", "tool_call", "response"] * 3
    call = raw["steps"][4]
    assert call["step_id"] == "s5"
    assert call["tool_name"] == "ModifyRegistration"
    assert call["arguments"] == {
        "appointment_id": "34567890",
        "new_appointment_date": "2023-03-26",
        "new_appointment_doctor": "Dr. Lee",
    }
    assert call["observation"] == "success"  # "->success" is text, neither JSON nor a literal
    lookup = raw["steps"][10]
    assert lookup["tool_name"] == "QueryHealthData"
    assert lookup["observation"] == [
        {"time": "2023-03-11 14:20:00", "blood_pressure": [140, 90], "triglycerides": 130, "heart_rate": 85}
    ]
    assert raw["steps"][0]["content"].startswith("Can you please modify my appointment scheduled for March 25th")
    assert raw["steps"][-1] == {
        "action_type": "response",
        "content": "Appointment canceled successfully.",
        "step_id": "s18",
    }


@needs_apibank
def test_apibank_catalog_of_one_tool() -> None:
    raw = next(
        r for r in apibank_traces() if r["case_id"] == "ModifyRegistration-QueryHealthData-CancelRegistration-level-2-2"
    )
    tools = {tool["name"]: tool for tool in raw["environment"]["tools"]}
    assert sorted(tools) == ["CancelRegistration", "ModifyRegistration", "QueryHealthData"]
    assert tools["QueryHealthData"] == {
        "name": "QueryHealthData",
        "description": "This API queries the recorded health data in database of a given user and time span. "
        "Returns: health_data (list): The health data of the given user and time span.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "user_id": {"type": "string", "description": "The user id of the given user. Cases are ignored."},
                "start_time": {
                    "type": "string",
                    "description": "The start time of the time span. Format: %Y-%m-%d %H:%M:%S",
                },
                "end_time": {
                    "type": "string",
                    "description": "The end time of the time span. Format: %Y-%m-%d %H:%M:%S",
                },
            },
        },
    }  # no annotations and no required list: API-Bank states neither


@needs_apibank
def test_apibank_quoted_list_argument_and_trailing_request() -> None:
    raws = {raw["case_id"]: raw for raw in apibank_traces()}
    quoted = [
        step
        for raw in raws.values()
        for step in raw["steps"]
        if step["action_type"] == "tool_call" and "='[" in step["metadata"]["apibank_request"]
    ]
    assert len(quoted) == 40
    assert all(
        isinstance(step["arguments"].get("attendees", step["arguments"].get("health_data")), list) for step in quoted
    )
    query = raws["QueryMeeting-level-3-1"]["steps"][8]  # s9: attendees='['Karen Zhang', ...]' in the data
    assert query["tool_name"] == "QueryMeeting"
    assert query["arguments"]["attendees"] == ["Karen Zhang", "Mark Brown", "Timothy Lee"]
    assert query["arguments"]["meeting_topic"] == "Marketing Campaign Planning"
    # the one file whose longest item asks for a request: it ends in that call, with no result recorded
    last = raws["DeleteAccount-ModifyPassword-GetUserToken-level-2-5"]["steps"][-1]
    assert (last["tool_name"], last["arguments"], last["observation"]) == (
        "DeleteAccount",
        {"token": "z9x8c7v6b5n4m3q2w1"},
        None,
    )


@needs_sgd
def test_each_fault_kind_lands_at_its_step() -> None:
    pools = Pools(["No, make it for 3 people."], ["Somewhere Else"], {"address": ["9 Other Road"]})
    planted = {}
    clean = {}
    for raw in sgd_traces(limit=60):
        for kind, plant in FAULTS.items():
            got = plant(raw, pools)
            if got is not None and kind not in planted:
                planted[kind] = got
                clean[kind] = raw
                parse_trace(got.trace)  # still a valid trace
                assert set(got.steps) <= {s["step_id"] for s in got.trace["steps"]}
    assert {"refuse", "changed_argument", "repeated_call", "hidden_error", "drop_confirmation",
            "claimed_without_call"} <= set(planted)  # fmt: skip
    dropped = planted["drop_confirmation"]
    assert dropped.policy is not None
    gone = [s for s in clean["drop_confirmation"]["steps"] if s not in dropped.trace["steps"]]
    assert [s["action_type"] for s in gone] == ["response", "user"]  # the proposal and the answer to it
    assert "CONFIRM" in gone[0]["metadata"]["sgd_acts"]
    call = next(s for s in dropped.trace["steps"] if s["step_id"] == dropped.steps[0])
    assert dropped.policy["rules"]["consent"] == {call["tool_name"]: "confirm"}
    claimed = planted["claimed_without_call"]
    reply = next(s for s in claimed.trace["steps"] if s["step_id"] == claimed.steps[0])
    assert "NOTIFY_SUCCESS" in reply["metadata"]["sgd_acts"]


@needs_sgd
def test_sgd_user_steps_carry_the_intents_they_ask_for() -> None:
    raw = next(iter(sgd_traces(limit=1)))
    first = raw["steps"][0]
    # sgd-1_00000 opens "Hi, could you get me a restaurant booking on the 8th please?" (INFORM_INTENT ReserveRestaurant)
    assert first["metadata"]["sgd_intents"] == ["ReserveRestaurant"]
    assert "INFORM_INTENT" in first["metadata"]["sgd_acts"]
    assert asked_by_labels(raw, next(s["step_id"] for s in raw["steps"] if s["action_type"] == "tool_call"))


def test_adversarial_cases_load_under_their_policy() -> None:
    environment_from_json(POLICY, "aem_bench.adversarial.POLICY")
    labelled = cases()
    for raw in labelled:
        label = raw["label"]
        trace = parse_trace({k: v for k, v in raw.items() if k != "label"})
        assert label["expected"] in ("pass", "fail")
        if label["expected"] == "fail":
            assert label["step_id"] in {str(s.step_id) for s in trace.steps}
    assert len({raw["trace_id"] for raw in labelled}) == len(labelled)


def test_benchmark_script_prints_every_section() -> None:
    script = ROOT / "benchmarks" / "trace_realdata.py"
    done = subprocess.run(
        [sys.executable, str(script), "--limit", "3", "--samples", "1"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    if (APIBANK_DIR / "level-1-api.json.gz").exists():
        assert "API-Bank, tuning: 3 traces" in done.stdout
    assert "τ-bench airline, tuning, rewarded runs (without gold): 3 traces" in done.stdout  # bundled: always there
    assert "the two differ on" in done.stdout
    for heading in ("False alarms", "Planted faults", "Adversarial traces", "Fresh hard traces"):
        if heading in ("False alarms", "Planted faults") and not (SGD_DIR / "test_schema.json").exists():
            continue
        assert heading in done.stdout


KNOWN_WRONG: dict[str, str] = {}
"""Adversarial cases the rules still get wrong (issue 28 stays open for them): each is expected to fail
strictly, so a fix shows up as an unexpected pass and the entry must go."""


def _adversarial_params() -> list[object]:
    return [
        pytest.param(
            raw,
            id=raw["trace_id"],
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN_WRONG[raw["trace_id"]])]
            if raw["trace_id"] in KNOWN_WRONG
            else [],
        )
        for raw in cases()
    ]


@pytest.mark.parametrize("raw", _adversarial_params())
def test_adversarial_case_gets_its_verdict(raw: dict[str, object]) -> None:
    from aem_strands.trace.evaluate import evaluate_trace

    label = raw["label"]
    assert isinstance(label, dict)
    trace = parse_trace({k: v for k, v in raw.items() if k != "label"})
    result = evaluate_trace(trace, policy=environment_from_json(POLICY, "aem_bench.adversarial.POLICY"))
    assert result.status.value == label["expected"], [f.rule for v in result.dimensions.values() for f in v.findings]
    if label["expected"] == "fail":
        failing = {f.dimension.value for v in result.dimensions.values() for f in v.findings}
        assert label["dimension"] in failing


def test_second_fresh_set_loads_under_its_policies() -> None:
    """The blind helper's second held-out set: every trace loads verbatim, names its policy and a step it fails at."""
    folder = ROOT / "data" / "traces_fresh_v2"
    lines = [json.loads(line) for line in (folder / "heldout.jsonl").read_text(encoding="utf-8").splitlines() if line]
    assert len(lines) == 60
    for raw in lines:
        label = raw["label"]
        load_policy(folder / label["policy"])
        trace = parse_trace({k: v for k, v in raw.items() if k != "label"})
        assert label["expected"] in ("pass", "fail")
        if label["expected"] == "fail":
            assert label["step_id"] in {str(s.step_id) for s in trace.steps}
    assert len({raw["trace_id"] for raw in lines}) == 60


@pytest.mark.parametrize(
    ("folder", "file"), [("traces_fresh_v3", "heldout.jsonl"), ("traces_fresh_v4", "traces.jsonl")]
)
def test_third_and_fourth_fresh_sets_load_under_their_policies(folder: str, file: str) -> None:
    """The third (all held out) and fourth (halved) blind sets: every trace loads verbatim, names its policy, a
    dimension and a step it fails at; 30 pass and 30 fail, as their READMEs say."""
    where = ROOT / "data" / folder
    lines = [json.loads(line) for line in (where / file).read_text(encoding="utf-8").splitlines() if line]
    assert len(lines) == len({raw["trace_id"] for raw in lines}) == 60
    expected = [raw["label"]["expected"] for raw in lines]
    assert expected.count("pass") == expected.count("fail") == 30
    for raw in lines:
        label = raw["label"]
        load_policy(where / label["policy"])
        trace = parse_trace({k: v for k, v in raw.items() if k != "label"})
        if label["expected"] == "fail":
            assert label["step_id"] in {str(s.step_id) for s in trace.steps}
            assert label["dimension"] in {d.value for d in Dimension}


def test_an_undecided_question_at_the_planted_step_counts_in_either_shape() -> None:
    """Safety writes ``step 's5': ...``, arguments ``step s5: ...``: both name the step; ``s50`` does not."""
    import trace_realdata
    from aem_bench.trace_faults import Planted

    from aem_strands.trace.evaluate import evaluate_trace

    raw = {
        "trace_id": "undecided-shapes",
        "steps": [
            {"step_id": "s1", "action_type": "user", "content": "Find me a table for two."},
            {"step_id": "s5", "action_type": "tool_call", "tool_name": "find", "arguments": {"cuisine": "Thai"}},
        ],
    }
    result = evaluate_trace(parse_trace(raw))
    arguments = result.dimensions[Dimension.ARGUMENTS]
    planted = Planted("changed_argument", raw, ("s5",), ("arguments",))
    for question, asked in (
        ("step s5: did the user give 'Thai'?", True),
        ("step s50: did the user give it?", False),
        ("step 's5': did the user consent?", True),
    ):
        shaped = result.dimensions | {
            Dimension.ARGUMENTS: type(arguments)(**{**arguments.__dict__, "findings": (), "undecided": (question,)})
        }
        judged = type(result)(**{**result.__dict__, "dimensions": shaped})
        assert trace_realdata._at_steps(judged, planted) == (False, asked), question


def test_taubench_runs_load_as_traces_with_gold_and_rewards() -> None:
    """The bundled τ-bench runs (data/taubench): 200 runs, 84 rewarded; every tool result joins its call, the
    policy's "current time" is today, the gold actions come only with ``gold=True``, halves keep a task whole."""
    from aem_bench.taubench import taubench_traces

    raws = list(taubench_traces(gold=True))
    assert len(raws) == 200
    assert sum(raw["metadata"]["reward"] == 1.0 for raw in raws) == 84
    first = parse_trace(raws[0])
    assert first.initial_state == {"today": "2024-05-15"}
    assert first.gold is not None
    assert first.gold.expected_tools == ("book_reservation",)
    calls = [step for raw in raws for step in raw["steps"] if step["action_type"] == "tool_call"]
    assert calls
    assert all("observation" in step for step in calls)
    assert not any("###STOP###" in str(step.get("content")) for raw in raws for step in raw["steps"])
    tuning = list(taubench_traces(split="tuning"))
    assert all("evaluation" not in raw for raw in tuning)
    tasks = {raw["case_id"] for raw in tuning}
    assert all(split_of(task) == "tuning" for task in tasks)
    assert 0 < len(tuning) < 200


def test_taubench_runs_get_one_verdict_on_their_calls_from_score_and_from_trace() -> None:
    """Issue 28, "With gold: one engine": the same real runs as ``score`` dialogs and as traces with gold get the
    same verdict on their calls (runs of one task that differ in outcome, τ-bench's tasks 0-5)."""
    from itertools import islice

    from aem_bench.taubench import taubench_catalog, taubench_dialogs, taubench_traces

    from aem_strands import evaluate_dialogs
    from aem_strands.tools import tools_from_json
    from aem_strands.trace.evaluate import evaluate_trace

    dialogs = list(islice(taubench_dialogs(), 24))
    assert any(turn.get("optional") for d in dialogs for turn in d["gold"])  # lookups the gold lists are optional
    scored = evaluate_dialogs(dialogs, scope="actions", allow_extra="read_only",
                              tools=tools_from_json(taubench_catalog()), scorer="exact")  # fmt: skip
    traced = [evaluate_trace(parse_trace(raw)) for raw in islice(taubench_traces(gold=True), 24)]
    by_score = [r.test_pass for r in scored]
    by_trace = [r.dimensions[Dimension.TOOL_SELECTION].passed is True for r in traced]
    assert by_score == by_trace
    assert True in by_score
    assert False in by_score
