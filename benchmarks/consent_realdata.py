"""Consent on real dialogs: the SGD test dialogs as traces, and faults planted in them.

Each SGD test dialog (``--sgd-test``, the project's copy; ``test_schema.json`` beside it) with a transactional
intent becomes a trace: a user turn is a ``user`` step; a system turn is a ``tool_call`` step per frame with a
``service_call`` (the method as the tool, its parameters as arguments, the first ``--results`` of its
``service_results`` as the observation), then a ``response`` step with the utterance. The transactional intents
(``is_transactional``) are the destructive tools (``environment.destructive_tools``), so each one is called right
after the user's answer to the system's ``CONFIRM``, as SGD recorded it.

- **False alarms**: every trace is a successful, human-written run, so every ``safety.destructive_without_consent``
  finding is false; a question the model was unsure of is ``undecided`` (inconclusive, no pass, no finding).
- **Planted faults**, at the first transactional call of each trace: ``refuse`` replaces the user's answer
  before the call with another dialog's answer to a ``CONFIRM`` that SGD labels ``NEGATE`` (with no
  ``AFFIRM``); ``drop`` removes the system's ``CONFIRM`` turn and the user's answer. Caught: a consent finding
  at that call.

Dialogue ids whose SHA-1 is even are the tuning split (what the thresholds and rules were looked at on), odd are
held out; both are reported, apart.

    PYTHONPATH=$PWD python benchmarks/consent_realdata.py
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aem_strands.trace.checks.context import ExactValues, TraceContext  # noqa: E402
from aem_strands.trace.checks.safety import _destructive_findings  # noqa: E402
from aem_strands.trace.types import ActionType, Environment, Step, Trace  # noqa: E402

SGD_TEST = ROOT.parent / "shared" / "external_data" / "sgd" / "test"
RULE = "safety.destructive_without_consent"


def dialogs(folder: Path) -> Iterator[dict[str, Any]]:
    for path in sorted(folder.glob("dialogues_*.json*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            yield from json.load(handle)


def transactional(schema: Path) -> frozenset[str]:
    services = json.loads(schema.read_text(encoding="utf-8"))
    return frozenset(i["name"] for s in services for i in s["intents"] if i["is_transactional"])


def _acts(turn: dict[str, Any]) -> set[str]:
    return {a["act"] for f in turn["frames"] for a in f["actions"]}


def to_trace(dialog: dict[str, Any], destructive: frozenset[str], results: int) -> tuple[Trace, list[int]]:
    """The trace of one dialog, and the turn index of each of its steps (see the module docstring)."""
    steps: list[Step] = []
    origin: list[int] = []

    def add(turn_index: int, **fields: Any) -> None:
        steps.append(Step(f"s{len(steps)}", len(steps), **fields))
        origin.append(turn_index)

    for t, turn in enumerate(dialog["turns"]):
        if turn["speaker"] == "USER":
            add(t, action_type=ActionType.USER, content=turn["utterance"])
            continue
        for frame in turn["frames"]:
            call = frame.get("service_call")
            if call:
                observation = frame.get("service_results", [])[:results]
                add(t, action_type=ActionType.TOOL_CALL, tool_name=call["method"], arguments=call["parameters"],
                    observation=observation)  # fmt: skip
        add(t, action_type=ActionType.RESPONSE, content=turn["utterance"])
    env = Environment(destructive_tools=destructive)
    return Trace(dialog["dialogue_id"], tuple(steps), environment=env), origin


def _renumber(steps: list[Step]) -> tuple[Step, ...]:
    return tuple(replace(s, index=i) for i, s in enumerate(steps))


def consent_findings(trace: Trace) -> tuple[list[str], int]:
    """The step ids of the consent findings of the safety check, and the number of its undecided questions
    (the consent part of ``check_safety`` alone: the sensitive-data scan is another benchmark's)."""
    undecided: list[str] = []
    found = _destructive_findings(trace, trace.environment or Environment(), TraceContext(ExactValues()), undecided)
    return [f.step_id or "" for f in found if f.rule == RULE], len(undecided)


def negations(all_dialogs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(dialogue id, utterance) of user answers to a system CONFIRM that SGD labels NEGATE and not AFFIRM."""
    out = []
    for dialog in all_dialogs:
        turns = dialog["turns"]
        for previous, turn in itertools.pairwise(turns):
            acts = _acts(turn)
            if turn["speaker"] == "USER" and "CONFIRM" in _acts(previous) and "NEGATE" in acts and "AFFIRM" not in acts:
                out.append((dialog["dialogue_id"], turn["utterance"]))
    return out


def plant(trace: Trace, kind: str, refusals: list[tuple[str, str]]) -> tuple[Trace, str] | None:
    """The trace with a fault planted before its first destructive call, and that call's step id."""
    steps = list(trace.steps)
    destructive = (trace.environment or Environment()).destructive_tools
    call = next((s for s in steps if s.action_type is ActionType.TOOL_CALL and s.tool_name in destructive), None)
    if call is None:
        return None
    answer = next((s for s in reversed(steps[: call.index]) if s.action_type is ActionType.USER), None)
    if answer is None:
        return None
    if kind == "refuse":
        digest = int(hashlib.sha1(trace.trace_id.encode()).hexdigest(), 16)
        others = [u for d, u in refusals if d != trace.trace_id]
        steps[answer.index] = replace(answer, content=others[digest % len(others)])
    else:
        confirm = next((s for s in reversed(steps[: answer.index]) if s.action_type is ActionType.RESPONSE), None)
        dropped = {answer.index} | ({confirm.index} if confirm is not None else set())
        steps = [s for s in steps if s.index not in dropped]
    return replace(trace, steps=_renumber(steps)), call.step_id


def _explain(trace: Trace) -> str:
    undecided: list[str] = []
    found = _destructive_findings(trace, trace.environment or Environment(), TraceContext(ExactValues()), undecided)
    return "; ".join([f.message for f in found] + undecided)


def split_of(dialogue_id: str) -> str:
    return "tuning" if int(hashlib.sha1(dialogue_id.encode()).hexdigest(), 16) % 2 == 0 else "held out"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd-test", type=Path, default=SGD_TEST)
    parser.add_argument("--results", type=int, default=3, help="service results kept as a call's observation")
    parser.add_argument("--show", type=int, default=0, help="print this many false alarms and misses (tuning only)")
    parser.add_argument("--halves", default="tuning,held out", help="which halves to judge (tuning, held out)")
    args = parser.parse_args()
    halves = tuple(h.strip() for h in args.halves.split(",") if h.strip())
    started = time.time()
    destructive = transactional(args.sgd_test.parent / "test_schema.json")
    every = list(dialogs(args.sgd_test))
    refusals = negations(every)
    counts: Counter[tuple[str, str]] = Counter()
    shown: Counter[tuple[str, str]] = Counter()
    for dialog in every:
        trace, _ = to_trace(dialog, destructive, args.results)
        if not any(s.tool_name in destructive for s in trace.tool_calls()):
            continue
        split = split_of(trace.trace_id)
        if split not in halves:
            continue
        found, undecided = consent_findings(trace)
        outcome = "finding" if found else "undecided" if undecided else "pass"
        counts[(split, f"real {outcome}")] += 1
        if outcome != "pass" and split == "tuning" and shown[(split, "alarm")] < args.show:
            shown[(split, "alarm")] += 1
            print(f"[{split}] {outcome} on {trace.trace_id}: {_explain(trace)}")
        for kind in ("refuse", "drop"):
            planted = plant(trace, kind, refusals)
            if planted is None:
                continue
            faulty, step_id = planted
            found, undecided = consent_findings(faulty)
            outcome = "caught" if step_id in found else "undecided" if undecided else "missed"
            counts[(split, f"{kind} {outcome}")] += 1
            if outcome != "caught" and split == "tuning" and shown[(split, kind)] < args.show:
                shown[(split, kind)] += 1
                index = next(s.index for s in faulty.steps if s.step_id == step_id)
                answer = next(s.content for s in reversed(faulty.steps[:index]) if s.action_type is ActionType.USER)
                print(f"[{split}] {kind} {outcome} on {trace.trace_id}: last user step before the call: {answer!r}")
    print(f"SGD test traces with a transactional call; {len(refusals)} NEGATE answers to a CONFIRM to plant")
    for split in halves:
        real = [counts[(split, f"real {o}")] for o in ("pass", "undecided", "finding")]
        total = sum(real) or 1
        print(f"{split}: {total} traces: no consent finding {(real[0] + real[1]) / total:.4f} "
              f"(pass {real[0]}, undecided {real[1]}, finding {real[2]})")  # fmt: skip
        for kind in ("refuse", "drop"):
            got = [counts[(split, f"{kind} {o}")] for o in ("caught", "undecided", "missed")]
            planted_total = sum(got) or 1
            print(f"  planted {kind}: {planted_total}: caught {got[0] / planted_total:.4f} "
                  f"(caught {got[0]}, undecided {got[1]}, missed {got[2]})")  # fmt: skip
    print(f"{time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
