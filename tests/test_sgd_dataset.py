"""The SGD converter, the seeded perturbations, and the SGD benchmark script.

Tests that read ``../shared/external_data/sgd`` skip when it is absent; the others build small
SGD-like dialogs inline.
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from aem_bench import (
    ACCEPTED_REASONS,
    Perturbation,
    PerturbationRecord,
    build_pool,
    load_sgd_dialogs,
    perturb,
    perturb_dialogs,
    perturbations_of,
)

from aem_strands import (
    ActionCall,
    ConfigError,
    Dialog,
    FailureReason,
    InputError,
    Reply,
    Role,
    TableScorer,
    Turn,
    TurnKind,
    evaluate_dialog,
    evaluate_dialogs,
)

ROOT = Path(__file__).resolve().parent.parent
SGD = ROOT.parent / "shared" / "external_data" / "sgd"
needs_sgd = pytest.mark.skipif(not (SGD / "test").is_dir(), reason=f"SGD data not found at {SGD}")


def action_turn(turn_no: int, tool: str, act: str, **args: Any) -> Turn:
    call = ActionCall(tool, act, args)
    return Turn(turn_no, TurnKind.ACTION, call, call)


def reply_turn(turn_no: int, text: str) -> Turn:
    return Turn(turn_no, TurnKind.RESPONSE, Reply(text), Reply(text))


def sgd_like(dialog_id: str, *turns: Turn) -> Dialog:
    return Dialog(dialog_id, turns, {"source": "sgd", "services": ["Restaurants_2"]})


def failures(dialog: Dialog) -> dict[int, FailureReason | None]:
    """turn_no -> own reason of every failed turn, scored without a model."""
    result = evaluate_dialog(dialog, scorer="exact")
    return {t.turn.turn_no: t.verdict.own_reason for t in result.turns if t.verdict.failed}


# ---------------------------------------------------------------------------------------------- converter


@pytest.fixture(scope="module")
def first_dialogs() -> list[Dialog]:
    if not (SGD / "test").is_dir():
        pytest.skip(f"SGD data not found at {SGD}")
    return load_sgd_dialogs(SGD, limit=50)


@pytest.mark.slow
def test_first_sgd_dialog_becomes_paired_turns(first_dialogs: list[Dialog]) -> None:
    # dialogues_001.json.gz, dialogue 1_00000: SYSTEM turns are raw turns 1, 3, 5, ...; the third
    # (raw turn 5) calls Restaurants_2.ReserveRestaurant, so it gives an action turn then a reply.
    dialog = first_dialogs[0]
    assert dialog.dialog_id == "1_00000"
    assert dialog.metadata == {"source": "sgd", "file": "dialogues_001.json.gz", "services": ["Restaurants_2"]}
    assert [t.kind for t in dialog.turns[:4]] == [
        TurnKind.RESPONSE,
        TurnKind.RESPONSE,
        TurnKind.ACTION,
        TurnKind.RESPONSE,
    ]
    assert dialog.turns[0].gold == Reply("Any preference on the restaurant, location and time?")
    assert dialog.turns[2].gold == ActionCall(
        "Restaurants_2",
        "ReserveRestaurant",
        {
            "date": "2019-03-08",
            "location": "Corte Madera",
            "number_of_seats": "2",
            "restaurant_name": "P.f. Chang's",
            "time": "12:00",
        },
    )
    assert dialog.turns[3].gold == Reply(
        "Sorry, your reservation could not be made. Could I help you with something else?"
    )
    assert [t.turn_no for t in dialog.turns] == list(range(1, len(dialog.turns) + 1))
    assert all(t.gold == t.predicted for d in first_dialogs for t in d.turns)


@pytest.mark.slow
def test_turn_counts_match_the_raw_file(first_dialogs: list[Dialog]) -> None:
    # One response turn per SYSTEM turn plus one action turn per service_call, counted from the raw JSON.
    raw = json.loads(gzip.decompress((SGD / "test" / "dialogues_001.json.gz").read_bytes()))[:50]
    for dialog, dialogue in zip(first_dialogs, raw, strict=True):
        system = [t for t in dialogue["turns"] if t["speaker"] == "SYSTEM"]
        calls = sum(1 for t in system for f in t["frames"] if "service_call" in f)
        assert dialog.dialog_id == dialogue["dialogue_id"]
        assert sum(t.kind is TurnKind.RESPONSE for t in dialog.turns) == len(system)
        assert sum(t.kind is TurnKind.ACTION for t in dialog.turns) == calls


@needs_sgd
@pytest.mark.slow
def test_limit_reads_on_into_the_next_file() -> None:
    # dialogues_001 holds 128 dialogues, so the 129th and 130th come from dialogues_002.
    dialogs = load_sgd_dialogs(SGD, limit=130)
    assert len(dialogs) == 130
    assert [d.metadata["file"] for d in dialogs[127:]] == ["dialogues_001.json.gz", *["dialogues_002.json.gz"] * 2]
    assert load_sgd_dialogs(SGD, limit=0) == []


@pytest.mark.slow
def test_gold_vs_itself_passes_without_a_model(first_dialogs: list[Dialog]) -> None:
    results = evaluate_dialogs(first_dialogs, scorer="exact")
    assert [r.dialog_id for r in results if not r.test_pass] == []
    assert {r.success_rate for r in results} == {1.0}
    assert sum(r.to_dict()["total_failures"] for r in results) == 0


@needs_sgd
@pytest.mark.slow
def test_every_sgd_dialog_passes_against_itself_without_a_model() -> None:
    # The property gold == predicted => no failure, over all 2,921 test dialogs (about 5 s with no model).
    dialogs = load_sgd_dialogs(SGD)
    assert len(dialogs) == 2921
    failing = [r.dialog_id for r in evaluate_dialogs(dialogs, scorer="exact") if not r.test_pass]
    assert failing == []


def test_missing_folder_and_malformed_dialogue_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no dialogues_"):
        load_sgd_dialogs(tmp_path)
    (tmp_path / "test").mkdir()
    bad = [{"dialogue_id": "9_1", "services": ["Alarm_1"], "turns": [{"speaker": "SYSTEM", "frames": []}]}]
    (tmp_path / "test" / "dialogues_001.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_sgd_dialogs(tmp_path)
    assert caught.value.location.dialog_id == "9_1"
    assert caught.value.location.field == "turns[0].utterance"
    assert caught.value.location.file is not None
    assert caught.value.location.file.endswith("dialogues_001.json")
    with pytest.raises(ConfigError, match="limit"):
        load_sgd_dialogs(tmp_path, limit=-1)


def test_plain_json_file_converts_like_the_gzip_one(tmp_path: Path) -> None:
    (tmp_path / "test").mkdir()
    dialogue = {
        "dialogue_id": "9_2",
        "services": ["Alarm_1"],
        "turns": [
            {"speaker": "USER", "utterance": "Show my alarms.", "frames": [{"service": "Alarm_1"}]},
            {
                "speaker": "SYSTEM",
                "utterance": "You have 2 alarms.",
                "frames": [{"service": "Alarm_1", "service_call": {"method": "GetAlarms", "parameters": {}}}],
            },
        ],
    }
    (tmp_path / "test" / "dialogues_001.json").write_text(json.dumps([dialogue]), encoding="utf-8")
    [dialog] = load_sgd_dialogs(tmp_path)
    assert dialog.turns == (action_turn(1, "Alarm_1", "GetAlarms"), reply_turn(2, "You have 2 alarms."))


# ---------------------------------------------------------------------------------------------- perturbations


def test_arg_drop_is_the_only_error_an_action_without_alternatives_can_get() -> None:
    # One value per slot and one method in the pool: only dropping an argument applies.
    dialog = sgd_like("d", action_turn(1, "Restaurants_2", "FindRestaurants", city="San Jose"), reply_turn(2, "Ok."))
    out = perturb(dialog, random.Random(0), 1.0)
    assert out.turns[0].predicted == ActionCall("Restaurants_2", "FindRestaurants", {})
    assert out.turns[0].gold == dialog.turns[0].gold
    assert perturbations_of(out)[0] == PerturbationRecord(1, Perturbation.ARG_DROP, "args.city", "San Jose", None)
    assert dialog.turns[0].predicted == ActionCall("Restaurants_2", "FindRestaurants", {"city": "San Jose"})
    assert failures(out)[1] is FailureReason.MISSING_PARAMETERS


def test_method_change_draws_another_action_of_the_same_tool() -> None:
    dialog = sgd_like("d", action_turn(1, "Alarm_1", "GetAlarms"))
    other = sgd_like("e", action_turn(1, "Alarm_1", "AddAlarm", new_alarm_time="07:00"))
    out = perturb(dialog, random.Random(0), 1.0, pool=build_pool([dialog, other]))
    assert out.turns[0].predicted == ActionCall("Alarm_1", "AddAlarm", {})
    assert [r.kind for r in perturbations_of(out)] == [Perturbation.METHOD]
    assert failures(out) == {1: FailureReason.ACTION_MISMATCH}


def test_reply_number_changes_one_number_by_one_to_nine() -> None:
    # The pool holds no other reply, so a swap is impossible; the reply's only number is 2.
    dialog = sgd_like("d", reply_turn(1, "Your table for 2 is booked."))
    out = perturb(dialog, random.Random(3), 1.0)
    [record] = perturbations_of(out)
    assert record.kind is Perturbation.REPLY_NUMBER
    assert record.gold == "2"
    assert isinstance(record.predicted, str)
    assert 3 <= int(record.predicted) <= 11
    assert out.turns[0].predicted == Reply(f"Your table for {record.predicted} is booked.")
    assert failures(out) == {1: FailureReason.INCONSISTENT_RESPONSE}


def test_reply_swap_takes_another_reply_of_the_dialogs_tools() -> None:
    dialog = sgd_like("d", reply_turn(1, "Where would you like to eat?"))
    other = sgd_like("e", reply_turn(1, "What time should the table be for?"))
    out = perturb(dialog, random.Random(0), 1.0, pool=build_pool([dialog, other]))
    assert out.turns[0].predicted == Reply("What time should the table be for?")
    assert [r.kind for r in perturbations_of(out)] == [Perturbation.REPLY_SWAP]
    # The swapped question asks for other information: gold's question is left unasked.
    assert failures(out) == {1: FailureReason.INCOMPLETE_RESPONSE}


def _arg_value_seed(dialog: Dialog, pool: Any) -> int:
    return next(s for s in range(100) if perturbations_of(perturb(dialog, random.Random(s), 1.0, pool=pool))[0].kind
                is Perturbation.ARG_VALUE)  # fmt: skip


def test_wrong_argument_value_propagates_to_the_reply_and_is_attributed_as_a_cascade() -> None:
    # Only "Oakland" is another city and FindRestaurants the only method; the reply after the call
    # names the gold city, so it repeats the wrong one.
    dialog = sgd_like(
        "d",
        action_turn(1, "Restaurants_2", "FindRestaurants", city="San Jose"),
        reply_turn(2, "I found a restaurant in San Jose."),
    )
    other = sgd_like("e", action_turn(1, "Restaurants_2", "FindRestaurants", city="Oakland"))
    pool = build_pool([dialog, other])
    out = perturb(dialog, random.Random(_arg_value_seed(dialog, pool)), 1.0, pool=pool)
    assert out.turns[0].predicted == ActionCall("Restaurants_2", "FindRestaurants", {"city": "Oakland"})
    assert out.turns[1].predicted == Reply("I found a restaurant in Oakland.")
    assert perturbations_of(out) == (
        PerturbationRecord(1, Perturbation.ARG_VALUE, "args.city", "San Jose", "Oakland"),
        PerturbationRecord(2, Perturbation.PROPAGATED, "response", "San Jose", "Oakland", from_turn=1),
    )
    result = evaluate_dialog(out, scorer="exact")
    first, second = result.turns
    assert first.verdict.own_reason is FailureReason.INCONSISTENT_PARAMETER_VALUES
    assert first.attribution is not None
    assert first.attribution.role is Role.ROOT_CAUSE
    assert second.verdict.own_reason is FailureReason.INCONSISTENT_RESPONSE
    assert second.failure_reason is FailureReason.PRIOR_ACTION_FAILED
    assert second.attribution is not None
    assert second.attribution.caused_by == 1
    # 2 turns, both fail: success_rate 0/2 = 0, one root cause, one cascade.
    summary = result.to_dict()
    assert (summary["success_rate"], summary["root_cause_count"], summary["cascading_count"]) == (0.0, 1, 1)


def test_rate_zero_changes_nothing_and_a_bad_rate_is_refused() -> None:
    dialog = sgd_like("d", action_turn(1, "Alarm_1", "GetAlarms"), reply_turn(2, "You have 2 alarms."))
    out = perturb(dialog, random.Random(0), 0.0)
    assert out.turns == dialog.turns
    assert out.metadata["perturbations"] == []
    for rate in (-0.1, 1.5, True):
        with pytest.raises(ConfigError, match="rate"):
            perturb(dialog, random.Random(0), rate)


@pytest.mark.slow
def test_perturbed_sgd_dialogs_fail_exactly_at_perturbed_turns(first_dialogs: list[Dialog]) -> None:
    perturbed = perturb_dialogs(first_dialogs, seed=1, rate=0.3)
    records = [perturbations_of(d) for d in perturbed]
    assert sum(len(r) for r in records) > 50  # rate 0.3 over ~400 turns: about 120 planted errors
    for dialog, planted in zip(perturbed, records, strict=True):
        found = failures(dialog)
        assert set(found) == {r.turn_no for r in planted}, dialog.dialog_id
        for record in planted:
            assert found[record.turn_no] in ACCEPTED_REASONS[record.kind], (dialog.dialog_id, record)


@pytest.mark.slow
def test_perturbed_turns_also_fail_with_a_table_scorer(first_dialogs: list[Dialog]) -> None:
    # Token-overlap similarity can pass a swapped reply that shares most words, never an unplanted failure.
    perturbed = perturb_dialogs(first_dialogs, seed=1, rate=0.3)
    for dialog, result in zip(perturbed, evaluate_dialogs(perturbed, scorer=TableScorer()), strict=True):
        planted = {r.turn_no for r in perturbations_of(dialog)}
        assert {t.turn.turn_no for t in result.turns if t.verdict.failed} <= planted


@pytest.mark.slow
def test_perturbation_is_deterministic_for_a_seed(first_dialogs: list[Dialog]) -> None:
    pool = build_pool(first_dialogs)
    once = perturb_dialogs(first_dialogs, seed=5, rate=0.2, pool=pool)
    again = perturb_dialogs(first_dialogs, seed=5, rate=0.2, pool=pool)
    other = perturb_dialogs(first_dialogs, seed=6, rate=0.2, pool=pool)
    assert once == again
    assert once != other
    # A dialog's errors depend on the seed and its id, not on which dialogs come with it.
    assert perturb_dialogs(first_dialogs[10:20], seed=5, rate=0.2, pool=pool) == once[10:20]
    assert perturb(first_dialogs[0], random.Random(9), 0.5, pool=pool) == perturb(
        first_dialogs[0], random.Random(9), 0.5, pool=pool
    )


# ---------------------------------------------------------------------------------------------- benchmark script


@needs_sgd
@pytest.mark.slow
def test_benchmark_script_runs_and_prints_the_figures() -> None:
    completed = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "sgd_benchmark.py"), "--limit", "20", "--scorer", "exact"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout
    raw = json.loads(gzip.decompress((SGD / "test" / "dialogues_001.json.gz").read_bytes()))[:20]
    system = [t for d in raw for t in d["turns"] if t["speaker"] == "SYSTEM"]
    turns = len(system) + sum(1 for t in system for f in t["frames"] if "service_call" in f)
    assert f"load: 20 dialogs, {turns} turns" in out
    for figure in ("dialogs/s", "turns/s", "distinct strings embedded", "tracemalloc", "max RSS (getrusage)"):
        assert out.count(figure) == 2, figure  # once for (a), once for (b)
    assert "dialogs not passing (must be 0)  0" in out
    assert "failures on unperturbed turns    0" in out
    assert "(a) gold vs itself" in out
    assert "(b) gold vs perturbed copy" in out
