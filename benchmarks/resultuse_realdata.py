"""Result use, recovery and asking again on real dialogs nobody here wrote: the SGD test dialogs as traces.

Usage (from the repository root)::

    PYTHONPATH=$PWD .venv/bin/python benchmarks/resultuse_realdata.py [--sgd-dir DIR] [--limit N] [--sample K] \
        [--misses K] [--halves tuning]

Each SGD test dialog (``dialogues_*.json(.gz)`` under ``DIR/test``, default ``../shared/external_data/sgd`` from
the repository root, else ``/work/shared/external_data/sgd``) becomes a trace: a user turn is a ``user`` step,
each system frame's ``service_call`` a ``tool_call`` step (its ``service_results`` the observation), the system
turn a ``response`` step; the tool catalog comes from ``test_schema.json`` (a non-transactional intent is
read-only). The dialogs are successful and human-written, so every ``result_use``, ``recovery`` and
``necessity.asked_again`` finding on them is a false alarm. Printed, for the tuning split (SHA-1 of the
dialogue id even) and the held-out split (odd) apart:

- the share of traces with no such finding (goal >= 99%), and how many were left undecided;
- planted faults, each on a copy of one trace: (a) *contradiction*: the first system turn after a call that
  states a time, price or date of the observation's first result (and reports no failure: then it proposes
  other values) says another one (a time an hour later, a
  price 7 more, a date a day later); (b) *success after error*: a transactional call the system then reports
  done gets an error observation (the shapes tools use, in turn); each must be caught at the planted step
  (goal >= 95%);
- a sample of the remaining false alarms.

The rules were tuned on the tuning split only. Exit 0; 2 when the data is missing.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from aem_strands.tools import ToolCatalog, ToolDefinition
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.necessity import check_necessity
from aem_strands.trace.checks.recovery import check_recovery
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import ActionType, Environment, Finding, Step, Trace
from aem_strands.trace.values import ComparatorValues

ROOT = Path(__file__).resolve().parent.parent
_DEFAULT_DIRS = (ROOT.parent / "shared" / "external_data" / "sgd", Path("/work/shared/external_data/sgd"))
_ERRORS: tuple[Any, ...] = (
    {"error": "not found"},
    '{"error": "service unavailable"}',
    {"success": False, "message": "could not complete"},
    {"status_code": 500, "body": "Internal Server Error"},
    "HTTP 500 Internal Server Error",
    "Request timed out",
    [{"type": "text", "text": "Error: backend unreachable"}],
    {"result": {"error": {"code": 503, "message": "unavailable"}}},
)
"""The error shapes the success-after-error plant cycles through."""


@dataclass(frozen=True)
class Dialog:
    dialogue_id: str
    trace: Trace
    system_acts: dict[int, frozenset[str]]
    """Step index of each response → the SGD acts of its turn."""


def _data_dir(given: str | None) -> Path | None:
    for candidate in [Path(given)] if given else _DEFAULT_DIRS:
        if (candidate / "test").is_dir() and (candidate / "test_schema.json").is_file():
            return candidate
    return None


def catalog(schema: list[dict[str, Any]]) -> tuple[ToolCatalog, frozenset[str]]:
    """The tool catalog of the SGD schema (a non-transactional intent is read-only), and the transactional names."""
    definitions, transactional = [], set()
    for service in schema:
        for intent in service["intents"]:
            write = bool(intent["is_transactional"])
            definitions.append(ToolDefinition(intent["name"], intent.get("description", ""), not write, None))
            if write:
                transactional.add(intent["name"])
    unique = {d.name: d for d in definitions}
    return ToolCatalog(tuple(unique.values())), frozenset(transactional)


def to_trace(raw: dict[str, Any], env: Environment) -> Dialog:
    """One SGD dialog as a trace (see the module docstring)."""
    steps: list[Step] = []
    acts: dict[int, frozenset[str]] = {}

    def add(**fields: Any) -> None:
        steps.append(Step(step_id=f"s{len(steps) + 1}", index=len(steps), **fields))

    for turn in raw["turns"]:
        if turn["speaker"] == "USER":
            add(action_type=ActionType.USER, content=turn["utterance"])
            continue
        for frame in turn["frames"]:
            call = frame.get("service_call")
            if call:
                add(action_type=ActionType.TOOL_CALL, tool_name=call["method"], arguments=dict(call["parameters"]),
                    observation=frame.get("service_results", []))  # fmt: skip
        acts[len(steps)] = frozenset(a["act"] for f in turn["frames"] for a in f["actions"])
        add(action_type=ActionType.RESPONSE, content=turn["utterance"])
    first = next((s.content for s in steps if s.action_type is ActionType.USER), None)
    replies = [s.content for s in steps if s.action_type is ActionType.RESPONSE]
    trace = Trace(raw["dialogue_id"], tuple(steps), goal=first, environment=env,
                  final_response=replies[-1] if replies else None)  # fmt: skip
    return Dialog(raw["dialogue_id"], trace, acts)


def dialogs(data: Path, env: Environment, limit: int | None) -> Iterator[Dialog]:
    files = sorted((data / "test").glob("dialogues_*.json*"))
    count = 0
    for path in files:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for raw in json.load(handle):
                if limit is not None and count >= limit:
                    return
                count += 1
                yield to_trace(raw, env)


def tuning(dialogue_id: str) -> bool:
    """The tuning split: the SHA-1 of the dialogue id is even."""
    return hashlib.sha1(dialogue_id.encode()).digest()[-1] % 2 == 0


def findings(trace: Trace, env: Environment, ctx: TraceContext) -> tuple[list[Finding], bool]:
    """The result-use, recovery and asked-again findings of a trace, and whether any of them was undecided."""
    found: list[Finding] = []
    undecided = False
    for check in (check_result_use, check_recovery, check_necessity):
        verdict = check(trace, env, ctx)
        found += [f for f in verdict.findings if f.rule != "necessity.repeated_call"]
        undecided = undecided or bool(verdict.undecided)
    return found, undecided


# --- planted faults ------------------------------------------------------------------------------------------

_TIME = re.compile(r"\b(\d{1,2})(:\d{2})?\s?(am|pm|a\.m\.|p\.m\.)", re.IGNORECASE)
_PRICE = re.compile(r"\$\s?(\d+(?:,\d{3})*)(?:\.\d+)?")
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]  # fmt: skip
_DATE = re.compile(rf"\b({'|'.join(_MONTHS)}) (\d{{1,2}})(st|nd|rd|th)?\b")


def _observed_strings(observation: Any, first_only: bool = True) -> set[str]:
    items = observation if isinstance(observation, list) else [observation]
    items = items[:1] if first_only else items
    return {str(v) for item in items if isinstance(item, dict) for v in item.values()}


def _plant_value(text: str, observed: set[str], held: set[str]) -> str | None:
    """``text`` with one time, price or date the observation's first result states changed to one no result of
    it holds (``held``: another bus of the list at that time is no contradiction), or ``None``."""
    for match in _TIME.finditer(text):
        evening = match.group(3).casefold().startswith("p")
        hour = int(match.group(1)) % 12 + (12 if evening else 0)
        if f"{hour:02d}{match.group(2) or ':00'}" in observed:
            shifted = int(match.group(1)) % 12 + 1
            if f"{shifted % 12 + (12 if evening else 0):02d}{match.group(2) or ':00'}" in held:
                continue
            return text[: match.start(1)] + str(shifted) + text[match.end(1) :]
    for match in _PRICE.finditer(text):
        digits = match.group(1).replace(",", "")
        if digits in observed or any(o.split(".")[0] == digits for o in observed):
            if any(o.split(".")[0] == str(int(digits) + 7) for o in held):
                continue
            return text[: match.start(1)] + str(int(digits) + 7) + text[match.end(1) :]
    for match in _DATE.finditer(text):
        month, day = _MONTHS.index(match.group(1)) + 1, int(match.group(2))
        if any(re.fullmatch(rf"\d{{4}}-{month:02d}-{day:02d}", o) for o in observed) and day < 28:
            if any(re.fullmatch(rf"\d{{4}}-{month:02d}-{day + 1:02d}", o) for o in held):
                continue
            return text[: match.start(2)] + str(day + 1) + text[match.end(2) :]
    return None


def plant_contradiction(dialog: Dialog) -> tuple[Trace, int] | None:
    steps = list(dialog.trace.steps)
    for index, step in enumerate(steps):
        if step.action_type is not ActionType.TOOL_CALL or not step.observation:
            continue
        after = next((s for s in steps[index + 1 :] if s.action_type is ActionType.RESPONSE), None)
        if after is None or not after.content or "NOTIFY_FAILURE" in dialog.system_acts.get(after.index, ()):
            continue  # after a failure the system proposes other values: no statement of the observation
        changed = _plant_value(
            after.content, _observed_strings(step.observation), _observed_strings(step.observation, first_only=False)
        )
        if changed is not None:
            steps[after.index] = replace(after, content=changed)
            return replace(dialog.trace, steps=tuple(steps), final_response=None), after.index
    return None


def plant_error(dialog: Dialog, transactional: frozenset[str], shape: int) -> tuple[Trace, int] | None:
    steps = list(dialog.trace.steps)
    for index, step in enumerate(steps):
        if step.action_type is not ActionType.TOOL_CALL or step.tool_name not in transactional:
            continue
        after = index + 1
        if after < len(steps) and "NOTIFY_SUCCESS" in dialog.system_acts.get(after, frozenset()):
            steps[index] = replace(step, observation=_ERRORS[shape % len(_ERRORS)])
            return replace(dialog.trace, steps=tuple(steps), final_response=None), after
    return None


# --- the report ------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd-dir")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--sample", type=int, default=12, help="false alarms printed per split")
    parser.add_argument("--misses", type=int, default=0, help="missed plants printed per split and kind")
    parser.add_argument(
        "--halves",
        default="tuning,heldout",
        help="which halves to judge (tuning, heldout); the held-out half prints its figures only, never its traces",
    )
    args = parser.parse_args(argv)
    halves = {h.strip().replace("heldout", "held-out") for h in args.halves.split(",") if h.strip()}
    if not halves or halves - {"tuning", "held-out"}:
        parser.error(f"--halves takes tuning and/or heldout, not {args.halves!r}")
    data = _data_dir(args.sgd_dir)
    if data is None:
        print("SGD data not found (give --sgd-dir, holding test/ and test_schema.json)", file=sys.stderr)
        return 2
    tools, transactional = catalog(json.loads((data / "test_schema.json").read_text(encoding="utf-8")))
    env = Environment(tools=tools)
    ctx = TraceContext(ComparatorValues())
    totals: dict[str, Counter[str]] = {"tuning": Counter(), "held-out": Counter()}
    samples: dict[str, list[str]] = {"tuning": [], "held-out": []}
    misses: dict[str, list[str]] = {"tuning": [], "held-out": []}
    rules: dict[str, Counter[str]] = {"tuning": Counter(), "held-out": Counter()}
    for number, dialog in enumerate(dialogs(data, env, args.limit)):
        split = "tuning" if tuning(dialog.dialogue_id) else "held-out"
        if split not in halves:
            continue
        shown = split == "tuning"  # the held-out half is measured, never read: no trace of it is printed
        count = totals[split]
        found, undecided = findings(dialog.trace, env, ctx)
        count["traces"] += 1
        count["clean"] += not found
        count["undecided"] += undecided and not found
        rules[split].update(f.rule for f in found)
        if shown and found and len(samples[split]) < args.sample:
            samples[split].append(f"{dialog.dialogue_id} {found[0].step_id} {found[0].rule}: {found[0].message[:300]}")
        planted = plant_contradiction(dialog)
        if planted is not None:
            trace, at = planted
            count["contradiction planted"] += 1
            caught = [f for f in findings(trace, env, ctx)[0] if f.rule.startswith("result_use.")]
            hit = any(f.step_index == at for f in caught)
            count["contradiction caught"] += hit
            if shown and not hit and len(misses[split]) < args.misses:
                misses[split].append(f"{dialog.dialogue_id} contradiction at s{at + 1}: {trace.steps[at].content}")
        errored = plant_error(dialog, transactional, number)
        if errored is not None:
            trace, at = errored
            count["error planted"] += 1
            caught = [f for f in findings(trace, env, ctx)[0] if f.rule == "recovery.reported_success_after_error"]
            hit = any(f.step_index == at for f in caught)
            count["error caught"] += hit
            if shown and not hit and len(misses[split]) < 2 * args.misses:
                misses[split].append(f"{dialog.dialogue_id} error at s{at + 1}: {trace.steps[at].content}")
    for split, count in totals.items():
        if split not in halves:
            continue
        traces = count["traces"] or 1
        print(f"{split}: {count['traces']} traces, {count['clean'] / traces:.2%} without a result_use / recovery / "
              f"asked_again finding ({count['undecided']} of them undecided)")  # fmt: skip
        for kind in ("contradiction", "error"):
            planted = count[f"{kind} planted"]
            caught = count[f"{kind} caught"]
            print(f"  planted {kind}: {caught}/{planted} caught at the planted step ({caught / (planted or 1):.2%})")
        print(f"  findings by rule: {dict(rules[split].most_common())}")
        for line in samples[split]:
            print(f"    {line}")
        for line in misses[split]:
            print(f"    missed: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
