"""Regression sets: every failing case of Strands Evals reports, written back as an experiment file.

``aem-strands export-regression RESULTS... --out cases.json`` reads Strands Evals report files
(``strands-evals run -o``, ``EvaluationReport.to_file``: they hold each case's inputs, gold and trajectory)
and writes one ``Case`` per failing case of an AEM evaluator, in an experiment file with an
``AemSessionEvaluator``, so that::

    strands-evals run cases.json --task aem_strands:offline_task --custom-evaluator aem_strands:AemSessionEvaluator

runs it as it is and fails the same way (offline: the recorded predicted turns are scored again), while
``--task MODULE:task`` (``make_live_task``) runs the agent on the same user messages and gold.

Each case keeps its name, input, gold (``metadata.aem``, or the host's ``expected_*`` fields turned into
``metadata.aem.gold``), other metadata and ``expected_*`` fields; a live case also gets
``metadata.aem.predicted``, the predicted turns the evaluator scored (what ``offline_task`` replays; a live
task ignores it). ``metadata.regression`` says where the failure was found: ``source`` file, ``evaluator``, ``score``,
``status``, ``reason`` (the dialog's line), ``root_cause`` (turn, failure reason, in words),
``counterfactual`` (the outcome of its counterfactual replay, or ``null`` when none ran) and, for repeated
trials, ``trials`` (passed, runs: the trials of one case become one case). ``metadata.confirmed`` is
``true`` exactly when the counterfactual replay fixed the failure (correcting the root cause made the rest
pass).

Trace rows (``AemTraceEvaluator``) export the same way, when the report has no AEM session rows or ``--evaluator``
names a trace evaluator, and so does ``aem-strands trace`` output with the trace files it read (``--inputs``) and
the ``--policy`` (``--gold``, ``--budget``, ``--scorer``) it was judged under; the experiment's evaluator is then
an ``AemTraceEvaluator``, so::

    strands-evals run cases.json --task aem_strands:offline_task --custom-evaluator aem_strands:AemTraceEvaluator

fails the same way (``aem_strands.strands.trace_regression``).

``aem-strands score`` output exports too, with the dialog files it scored: ``export-regression results.jsonl
--inputs dialogs.json ... --out cases.json`` writes, per failing dialog record, the dialog of that id from the
inputs as a case (``offline_case`` for a paired dialog; ``metadata.aem.gold`` and ``predicted`` for an unpaired
one), with ``metadata.regression`` as above (``evaluator``: ``aem-strands score``), so ``strands-evals run cases.json
--task aem_strands:offline_task --custom-evaluator aem_strands:AemSessionEvaluator`` fails again (with the
scorer the run used: ``--scorer``). A failing dialog whose id no input has, and an error record, are input errors.

A case is exported once (the first report that has it failing); a case the evaluator could not score at all
(no dialog result) is not exported. Score output (``aem-strands score``) holds no inputs or gold: naming
such a file without ``--inputs`` is an input error.
"""

from __future__ import annotations

import argparse
import copy
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from strands_evals import Case, Experiment

from aem_strands.decode import format_of, read_records
from aem_strands.errors import InputError, Location, printable
from aem_strands.load import read_lines
from aem_strands.output import AtomicFile, check_target
from aem_strands.report.words import counted, counterfactual, root_cause_in_words, root_turns
from aem_strands.strands.cases import AEM_KEY, host_fields, host_gold, offline_case
from aem_strands.strands.evaluators import AemSessionEvaluator
from aem_strands.strands.report import AemReport
from aem_strands.strands.trace_regression import (
    FailingTrace,
    is_trace_output,
    trace_experiment,
    trace_output_experiment,
)
from aem_strands.strands.trials import TRIAL_KEY, TRIAL_OF_KEY

EXIT_OK, EXIT_BAD_INPUT = 0, 2
_SPAN_KEYS = ("index", "user_turn", "span_id", "agent")
"""Keys ``dialog_metadata`` adds to each predicted turn that are not part of the unpaired turn format."""


@dataclass(frozen=True)
class FailingCase:
    """One failing AEM row of a report: its case record and dialog result, and where it was read."""

    case: dict[str, Any]
    result: dict[str, Any]
    score: float
    evaluator: str
    source: str


def _predicted(case: Mapping[str, Any], result: Mapping[str, Any], where: Location) -> list[Any]:
    """The predicted turns the evaluator scored, in the unpaired format (what ``offline_task`` replays)."""
    scored = result.get("predicted_turns")
    if isinstance(scored, list):
        return [{k: v for k, v in t.items() if k not in _SPAN_KEYS} for t in scored if isinstance(t, dict)]
    trajectory, output = case.get("actual_trajectory"), case.get("actual_output")
    if trajectory is not None and not isinstance(trajectory, list):
        raise InputError("the report row keeps no predicted turns to replay", where)
    turns: list[Any] = list(trajectory or [])
    if turns and all(isinstance(t, str) for t in turns):  # the host's list of tool names, read as case_dialog reads it
        turns = [{"turn": "Tool", "tool_id": t, "action": t, "args": {}} for t in turns]
    if isinstance(output, str) and output.strip():
        last = turns[-1] if turns else None
        said = last.get("response") if isinstance(last, dict) and last.get("turn") == "Agent" else None
        if not (isinstance(said, str) and said.strip() == output.strip()):
            turns.append({"turn": "Agent", "response": output})  # the task's output is the final reply
    return turns


def regression_case(failing: FailingCase, trials: Mapping[str, int] | None = None) -> Case[Any, Any]:
    """The ``Case`` that reproduces one failing row (see the module docstring)."""
    case, result = failing.case, failing.result
    metadata = copy.deepcopy(case.get("metadata") or {})
    name = str(metadata.pop(TRIAL_OF_KEY, None) or case.get("name"))
    metadata.pop(TRIAL_KEY, None)
    where = Location(failing.source, name, field="metadata.aem")
    entry = metadata.get(AEM_KEY)
    if entry is None:
        gold = host_gold(case.get("expected_trajectory"), case.get("expected_output"), name)
        entry = metadata[AEM_KEY] = {"gold": gold}
    if not isinstance(entry, dict):
        raise InputError("metadata.aem must be an object", where)
    if "dialog" not in entry:  # a live or unpaired case: record what the agent did
        entry["predicted"] = _predicted(case, result, where)
    roots = root_turns(result)
    root = roots[0] if roots else None
    replay = counterfactual({**result, "metadata": {**(result.get("metadata") or {}), **metadata}})
    metadata.pop("counterfactual", None)  # the replay belongs to the run that failed, not to the case
    outcome = replay.get("outcome") if replay is not None else None
    metadata["regression"] = {
        "source": failing.source,
        "evaluator": failing.evaluator,
        "score": failing.score,
        "status": result.get("status"),
        "reason": result.get("reason"),
        "root_cause": None
        if root is None
        else {
            "turn_no": root.get("turn_no"),
            "failure_reason": root.get("own_reason") or root.get("failure_reason"),
            "words": root_cause_in_words(result, root),
        },
        "counterfactual": outcome,
        **({"trials": dict(trials)} if trials is not None else {}),
    }
    metadata["confirmed"] = outcome == "fixed"
    return Case(name=name, metadata=metadata, **{"input": name, **host_fields(case)})


def _is_report(path: Path) -> bool:
    """Whether ``path`` is a Strands Evals report (a JSON object with ``detailed_results``), read as little as can
    tell: its first record."""
    for record in read_records(read_lines(path), str(path), format_of(path)):
        return record.kind == "document" and isinstance(record.value, dict) and "detailed_results" in record.value
    return False


def failing_rows(path: Path, evaluator: str | None = None) -> Iterator[FailingCase | FailingTrace | InputError]:
    """Every row of one Strands Evals report file, failing or not, as ``FailingCase`` (``test_pass`` decides
    later), or the errors that stand for the file; ``evaluator`` chooses the AEM evaluator (default: the first)."""
    file = str(path)
    for record in read_records(read_lines(path), file, format_of(path)):
        where = Location(file, line=record.line, index=record.index)
        if record.error is not None:
            yield InputError(record.error, where)
            continue
        if record.kind != "document" or not isinstance(record.value, dict) or "detailed_results" not in record.value:
            yield InputError(
                "not a Strands Evals report (strands-evals run -o): export-regression needs the cases' inputs and "
                "gold, which score output does not keep",
                where,
            )
            return
        try:
            report = AemReport.model_validate(record.value)
        except ValueError as error:
            yield InputError(f"not a Strands Evals report: {printable(str(error))}", Location(file))
            return
        names = list(dict.fromkeys(row.evaluator for row in report.aem_rows()))
        traces = report.trace_evaluators()
        chosen = evaluator or (names[0] if names else None)
        if chosen not in names and (evaluator or (traces[0] if traces else None)) in traces:
            name = evaluator or traces[0]
            for trace in report.trace_rows(name):
                yield FailingTrace(dict(trace.case), dict(trace.record), trace.score, trace.test_pass, name, file)
            continue
        if chosen is None or chosen not in names:
            known = ", ".join([*names, *traces]) or "none"
            wanted = "AEM session rows" if chosen is None else f"AEM evaluator {printable(repr(chosen))}"
            message = (
                f"no {wanted} (AemSessionEvaluator, CorrectnessCustomEvaluator, AemTraceEvaluator; found: {known})"
            )
            yield InputError(message, Location(file, field=None if chosen is None else "--evaluator"))
            return
        for row in report.aem_rows(chosen):
            yield FailingCase(dict(row.case), {**row.result, "test_pass": row.test_pass}, row.score, chosen, file)


def regression_experiment(
    rows: Sequence[FailingCase], *, scorer: str | None = None, errors: list[InputError] | None = None
) -> Experiment:
    """An experiment of one case per failing case of ``rows`` (trials of one case grouped into one), with an
    ``AemSessionEvaluator`` (``scorer`` when given, else its default). A row that cannot be turned into a case
    is appended to ``errors`` (raised when ``errors`` is ``None``)."""
    groups: dict[str, list[FailingCase]] = {}
    for row in rows:
        metadata = row.case.get("metadata") or {}
        name = str(metadata.get(TRIAL_OF_KEY) or row.case.get("name"))
        groups.setdefault(name, []).append(row)
    cases: list[Case[Any, Any]] = []
    for members in groups.values():
        failing = [m for m in members if not m.result.get("test_pass")]
        if not failing:
            continue
        trial = any(TRIAL_KEY in (m.case.get("metadata") or {}) for m in members)
        counts = {"passed": len(members) - len(failing), "runs": len(members)} if trial else None
        try:
            cases.append(regression_case(failing[0], counts))
        except InputError as error:
            if errors is None:
                raise
            errors.append(error)
    evaluator = AemSessionEvaluator() if scorer is None else AemSessionEvaluator(scorer=scorer)
    return Experiment(cases=cases, evaluators=[evaluator])


def input_dialogs(paths: Sequence[Path], errors: list[InputError]) -> dict[str, Any]:
    """Dialog id → the raw dialog (paired or unpaired JSON) of the files ``score`` read; a dialog that cannot be
    read is appended to ``errors`` (it can only matter when a failing record names it)."""
    from aem_strands.load import _units, file_stem  # the units score reads: a bare turn list is one dialog

    found: dict[str, Any] = {}
    for path in paths:
        file = str(path)
        try:
            for default_id, place, value, error in _units(read_records(read_lines(path), file, format_of(path)),
                                                           file_stem(file)):  # fmt: skip
                if error is not None or value is None:
                    errors.append(InputError(error or "no dialog", Location(file, line=place.line, index=place.index)))
                    continue
                named = value.get("dialog_id") if isinstance(value, dict) else None
                found.setdefault(str(named if isinstance(named, str) else default_id), value)
        except InputError as error:
            errors.append(error)
    return found


def score_cases(path: Path, dialogs: Mapping[str, Any]) -> Iterator[Case[Any, Any] | InputError]:
    """A regression case per failing dialog record of ``score`` output at ``path`` (see the module docstring)."""
    file = str(path)
    for record in read_records(read_lines(path), file, format_of(path)):
        where = Location(file, line=record.line, index=record.index)
        values = record.value if record.kind == "document" and isinstance(record.value, list) else [record.value]
        if record.error is not None:
            yield InputError(record.error, where)
            continue
        for value in values:
            if isinstance(value, dict) and "error" in value and "turns" not in value:
                yield InputError("an error record: the dialog was not scored", replace_id(where, value))
                continue
            if not isinstance(value, dict) or not isinstance(value.get("dialog_id"), str) or "test_pass" not in value:
                yield InputError("not a Strands Evals report nor a score record ('dialog_id', 'test_pass')", where)
                continue
            if value["test_pass"]:
                continue
            name = value["dialog_id"]
            raw = dialogs.get(name)
            if raw is None:
                yield InputError("no dialog of this id in --inputs", replace_id(where, value))
                continue
            roots = root_turns(value)
            root = roots[0] if roots else None
            regression = {
                "source": file, "evaluator": "aem-strands score", "score": value.get("score"),
                "status": value.get("status"), "reason": value.get("reason"),
                "root_cause": None if root is None else {
                    "turn_no": root.get("turn_no"),
                    "failure_reason": root.get("own_reason") or root.get("failure_reason"),
                    "words": root_cause_in_words(value, root)},
            }  # fmt: skip
            found = raw.get("metadata") if isinstance(raw, dict) else None
            own: dict[str, Any] = dict(found) if isinstance(found, dict) else {}
            if isinstance(raw, dict) and "gold" in raw and "predicted" in raw:  # unpaired: replayed as recorded
                aem = {"gold": raw["gold"], "predicted": raw["predicted"]}
                yield Case(name=name, input=name, metadata={**own, AEM_KEY: aem, "regression": regression})
            else:
                yield offline_case(raw, name=name, metadata={**own, "regression": regression})


def replace_id(where: Location, value: Mapping[str, Any]) -> Location:
    named = value.get("dialog_id")
    return Location(where.file, named if isinstance(named, str) else None, line=where.line, index=where.index)


def run_export(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    """Run ``export-regression`` with parsed ``args``; returns the exit code (0, or 2 when some input could
    not be read: the rest is exported)."""
    inputs: list[Path] = list(getattr(args, "inputs", None) or [])
    check_target(args.out, [*args.paths, *inputs, args.policy, args.gold], "--out")
    errors: list[InputError] = []
    with AtomicFile(args.out, "--out") as out:  # a folder we cannot write fails before the reading
        judged = [p for p in args.paths if _kind(p) == "trace"]
        others = [p for p in args.paths if p not in judged]
        if judged and not inputs:
            needs = (
                "aem-strands trace output: export-regression needs the trace files it read (--inputs) and the policy"
            )
            errors += [InputError(f"{needs} it was judged under (--policy)", Location(str(p))) for p in judged]
            judged = []
        if judged:
            experiment = trace_output_experiment(judged, inputs, policy=args.policy, gold=args.gold,
                                                 budgets=args.budgets, scorer=args.scorer, errors=errors,
                                                 keep_pii=bool(getattr(args, "keep_pii", False)))  # fmt: skip
            if others:
                errors.append(InputError("trace output is exported alone (this file is not trace output)",
                                         Location(str(others[0]))))  # fmt: skip
        else:
            experiment = _other_results(others, args, inputs, errors)
        out.write(json.dumps(experiment.to_dict(), indent=2, ensure_ascii=False) + "\n")
    for problem in errors:
        print(f"aem-strands: {printable(str(problem))}", file=stderr)
    cases = experiment.cases
    confirmed = sum(bool((c.metadata or {}).get("confirmed")) for c in cases)
    print(
        f"aem-strands: wrote {printable(str(args.out))} ({counted(len(cases), 'failing case')}, "
        f"{confirmed} confirmed by counterfactual replay)",
        file=stderr,
    )
    return EXIT_BAD_INPUT if errors else EXIT_OK


def _kind(path: Path) -> str:
    """``report`` (a Strands Evals report), ``trace`` (``aem-strands trace`` output) or ``score`` (the rest); an
    unreadable file is ``score``, whose reading names the problem."""
    try:
        return "report" if _is_report(path) else "trace" if is_trace_output(path) else "score"
    except InputError:
        return "score"


def _other_results(
    paths: Sequence[Path], args: argparse.Namespace, inputs: list[Path], errors: list[InputError]
) -> Experiment:
    """The experiment of Strands Evals reports and ``score`` output (with its ``--inputs``)."""
    rows: list[FailingCase] = []
    traces: list[FailingTrace] = []
    scored: list[Case[Any, Any]] = []
    dialogs = input_dialogs(inputs, errors) if inputs else None
    for path in paths:
        try:
            if dialogs is not None and not _is_report(path):
                for case in score_cases(path, dialogs):
                    if isinstance(case, InputError):
                        errors.append(case)
                    else:
                        scored.append(case)
                continue
            for item in failing_rows(path, args.evaluator):
                if isinstance(item, InputError):
                    errors.append(item)
                elif isinstance(item, FailingTrace):
                    traces.append(item)
                else:
                    rows.append(item)
        except InputError as error:
            errors.append(error)
    if traces and not rows and not scored:
        return trace_experiment(traces, errors=errors)
    experiment = regression_experiment(rows, scorer=args.scorer, errors=errors)
    known = {case.name for case in experiment.cases}
    extra = [case for case in scored if case.name not in known]
    return Experiment(cases=[*experiment.cases, *extra], evaluators=experiment.evaluators)
