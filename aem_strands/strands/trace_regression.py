"""Trace regression sets: failing traces written back as Strands Evals cases that reproduce their verdicts under
``AemTraceEvaluator`` (``aem-strands export-regression``; dialogs are ``aem_strands.strands.regression``).

From a Strands Evals report (``FailingTrace``, ``trace_experiment``): each failing ``AemTraceEvaluator`` row keeps
its case fields and gold; a case that was not an offline replay also gets ``metadata.aem.session``, the recorded
``Session`` (what ``offline_task`` replays); the evaluator is rebuilt from the row's ``evaluator_config``.

From ``aem-strands trace`` output with the trace files it read (``export-regression judged.jsonl --inputs
traces.yaml --policy policy.yaml [--gold gold.json] [--budget NAME=VALUE] [--scorer S]``, ``trace_output_cases``):
each record that did not pass (``fail`` or ``inconclusive``) is joined to its input by ``source`` (file, line,
element: never by trace id, which redaction may rewrite) and becomes a case named by the input's trace id, whose
``metadata.aem.trace`` is the input's trace document, with the ``--gold`` entry of that trace, if any, written over
its ``evaluation`` block field by field (as ``trace --gold`` overrides it). Personal data is redacted as ``trace``
redacts its output, unless ``keep_pii`` (``--keep-pii``): the whole document (its trace id, so the case's name, too)
goes through one ``Redactor`` for the run, so a value gets the same token wherever it stands and grounding of a
token against the same token still holds. ``offline_task`` replays the trace's steps and ``AemTraceEvaluator`` (with
the policy, budgets and scorer given, which must be those the trace run used) judges the recorded trace as
``aem-strands trace`` did. Every case is judged so before it is written (``aem_strands.strands.trace_reproduce``),
and kept only when its verdict is the record's (status, veto, first critical step, critical rule, failing
dimensions); one that differs is an input error naming both, and is left out: another policy or gold, or, when only
redaction changes it (the values themselves decide it: a card number shown in a reply), a case that ``--keep-pii``
exports with its values.
Span exports and dialog inputs are not trace documents: such a record is an input error.

Both kinds write ``metadata.regression``: ``source``, ``evaluator``, ``score``, ``status``, ``veto``,
``first_critical_failure_step``, ``critical_rule`` and ``reason`` (the hypothesis; of a redacted trace, the one
its redacted case is judged with, so no value of the record travels); trace output adds ``failing`` (the failing
dimensions) and ``input`` (file, line, index of the trace). A case is exported once (the first failing row or
record of its name).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strands_evals import Case, Experiment

from aem_strands.decode import format_of, read_records
from aem_strands.errors import InputError, Location, printable
from aem_strands.load import read_lines
from aem_strands.report.trace_words import is_trace_record, trace_score
from aem_strands.strands.cases import AEM_KEY, host_fields
from aem_strands.strands.trace_reproduce import checked_case, run_redactor, verdict_of
from aem_strands.strands.trials import TRIAL_KEY, TRIAL_OF_KEY

GOLD_KEYS = ("expected_tools", "expected_final_state", "expected_final_response")
"""The gold fields a ``--gold`` entry replaces in a trace's ``evaluation`` block, each as a whole."""


@dataclass(frozen=True)
class FailingTrace:
    """One trace row of a report (``test_pass`` decides later whether it fails), and where it was read."""

    case: dict[str, Any]
    record: dict[str, Any]
    score: float
    test_pass: bool
    evaluator: str
    source: str


def _regression(record: Mapping[str, Any], source: str, evaluator: str, score: float) -> dict[str, Any]:
    return {
        "source": source,
        "evaluator": evaluator,
        "score": score,
        "status": record.get("status"),
        "veto": record.get("veto"),
        "first_critical_failure_step": record.get("first_critical_failure_step"),
        "critical_rule": record.get("critical_rule"),
        "reason": record.get("root_cause_hypothesis"),
    }


def trace_regression_case(failing: FailingTrace) -> Case[Any, Any]:
    """The ``Case`` that reproduces one failing trace row (see the module docstring)."""
    case, record = failing.case, failing.record
    metadata = copy.deepcopy(case.get("metadata") or {})
    name = str(metadata.pop(TRIAL_OF_KEY, None) or case.get("name"))
    metadata.pop(TRIAL_KEY, None)
    entry = metadata.get(AEM_KEY)
    if entry is not None and not isinstance(entry, dict):
        raise InputError("metadata.aem must be an object", Location(failing.source, name, field="metadata.aem"))
    entry = dict(entry or {})
    if "dialog" not in entry and "trace" not in entry:  # a live run: its recorded Session is what offline_task replays
        session = case.get("actual_trajectory")
        if not isinstance(session, dict):
            raise InputError("the report row keeps no Session to replay", Location(failing.source, name))
        entry["session"] = session
    metadata[AEM_KEY] = entry
    metadata["regression"] = _regression(record, failing.source, failing.evaluator, failing.score)
    if case.get("actual_output") is not None and "trace" not in entry:
        entry["output"] = case.get("actual_output")
    return Case(name=name, metadata=metadata, **{"input": name, **host_fields(case)})


def trace_experiment(rows: Sequence[FailingTrace], errors: list[InputError] | None = None) -> Experiment:
    """An experiment of one case per failing trace row (the first row of each case name), with the
    ``AemTraceEvaluator`` the first row's ``evaluator_config`` describes (the default one when none is recorded)."""
    from aem_strands.strands.trace_evaluator import AemTraceEvaluator

    cases: list[Case[Any, Any]] = []
    seen: set[str] = set()
    for row in rows:
        name = str((row.case.get("metadata") or {}).get(TRIAL_OF_KEY) or row.case.get("name"))
        if row.test_pass or name in seen:
            continue
        seen.add(name)
        try:
            cases.append(trace_regression_case(row))
        except InputError as error:
            if errors is None:
                raise
            errors.append(error)
    config = next(
        (r.record.get("evaluator_config") for r in rows if isinstance(r.record.get("evaluator_config"), dict)), None
    )
    return Experiment(cases=cases, evaluators=[AemTraceEvaluator(**(config or {}))])


def is_trace_output(path: Path) -> bool:
    """Whether ``path`` holds ``aem-strands trace`` output: its first record (or the first element of a JSON array)
    is a trace record or a trace error record (``source`` and ``error``)."""
    for record in read_records(read_lines(path), str(path), format_of(path)):
        value = record.value[0] if isinstance(record.value, list) and record.value else record.value
        return is_trace_record(value) or (isinstance(value, dict) and "source" in value and "error" in value)
    return False


def _same_file(named: str, path: Path) -> bool:
    try:
        return named == str(path) or Path(named).resolve() == path.resolve()
    except OSError:
        return False


class TraceInputs:
    """The trace documents of the ``--inputs`` files, by file and place (line, element), read as ``aem-strands
    trace`` reads them (``aem_strands.trace.load``: the same limits, YAML's aliases bounded); each file is read once,
    when a record first names it."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.paths = list(paths)
        self._read: dict[Path, dict[tuple[int | None, int | None], Any]] = {}

    def _file(self, named: str) -> Path | None:
        found = [p for p in self.paths if _same_file(named, p)]
        if not found:  # the trace run's folder may differ from this one: the same file name, when only one has it
            found = [p for p in self.paths if p.name == Path(named).name]
            found = found if len(found) == 1 else []
        return found[0] if found else None

    def document(self, source: Mapping[str, Any], where: Location) -> Any:
        """The input trace document at ``source`` (``{file, line, index}``), or ``InputError``."""
        from aem_strands.trace.load import trace_units  # one per document or element, as ``trace`` reads them

        named = source.get("file")
        path = self._file(named) if isinstance(named, str) else None
        if path is None:
            raise InputError(f"the trace's input {printable(repr(named))} is none of --inputs", where)
        if path not in self._read:
            self._read[path] = {
                (u.where.line, u.where.index): u.value for u in trace_units(str(path)) if u.error is None
            }
        place = (source.get("line"), source.get("index"))
        if place not in self._read[path]:
            raise InputError(f"no trace at {Location(str(path), line=place[0], index=place[1]).describe()}", where)
        return self._read[path][place]


def gold_entries(path: Path | None) -> dict[str, Mapping[str, Any]]:
    """The raw entries of a ``--gold`` file by trace or case id (checked first as ``trace --gold`` checks it)."""
    if path is None:
        return {}
    from aem_strands.trace.documents import read_document
    from aem_strands.trace.load import load_trace_gold

    load_trace_gold(path)  # a bad gold file is refused here, as by `trace --gold`
    data = read_document(path, "gold file")
    if isinstance(data, dict):
        return {str(k): v for k, v in data.items() if isinstance(v, Mapping)}
    out: dict[str, Mapping[str, Any]] = {}
    for item in data if isinstance(data, list) else []:
        key = item.get("trace_id", item.get("case_id"))
        out[str(key)] = {k: v for k, v in item.items() if k not in ("trace_id", "case_id")}
    return out


def _with_gold(document: dict[str, Any], gold: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    entry = gold.get(str(document.get("trace_id")))
    if entry is None and document.get("case_id") is not None:
        entry = gold.get(str(document.get("case_id")))
    given = {k: entry[k] for k in GOLD_KEYS if entry is not None and entry.get(k) is not None}
    if not given:
        return document
    own = document.get("evaluation")
    return {**document, "evaluation": {**(own if isinstance(own, dict) else {}), **given}}


def _values(path: Path) -> Iterator[tuple[Location, Any]]:
    file = str(path)
    for record in read_records(read_lines(path), file, format_of(path)):
        where = Location(file, line=record.line, index=record.index)
        if record.error is not None:
            raise InputError(record.error, where)
        if record.kind == "document" and isinstance(record.value, list):
            for index, value in enumerate(record.value):
                yield Location(file, index=index), value
        else:
            yield where, record.value


def trace_output_cases(
    path: Path, inputs: TraceInputs, gold: Mapping[str, Mapping[str, Any]]
) -> Iterator[Case[Any, Any] | InputError]:
    """A regression case per record of ``path`` (``aem-strands trace`` output) that did not pass (see the module
    docstring), with the values of its input (``redacted_case`` redacts it), or the error of a record that cannot be
    one; not yet checked against the evaluator."""
    for where, value in _values(path):
        trace_id = value.get("trace_id") if isinstance(value, dict) else None
        place = Location(where.file, line=where.line, index=where.index, trace_id=trace_id)
        if isinstance(value, dict) and "error" in value and "dimensions" not in value:
            yield InputError("an error record: the trace was not judged", place)
            continue
        if not is_trace_record(value) or not isinstance(value.get("source"), dict):
            yield InputError("not a trace record with its source ('trace_id', 'dimensions', 'source')", place)
            continue
        if value.get("test_pass"):
            continue
        try:
            document = inputs.document(value["source"], place)
        except InputError as error:
            yield error
            continue
        if not isinstance(document, dict) or not isinstance(document.get("steps"), list):
            yield InputError("its input is no trace document (span and dialog inputs cannot be replayed)", place)
            continue
        document = _with_gold(copy.deepcopy(document), gold)
        name = str(document.get("trace_id"))
        metadata = {
            AEM_KEY: {"trace": document},
            "regression": {**_regression(value, str(path), "aem-strands trace", round(trace_score(value), 4)),
                           "failing": verdict_of(value)["failing"], "input": value["source"]},
        }  # fmt: skip
        yield Case(name=name, input=document.get("goal") or name, metadata=metadata)


def trace_output_experiment(
    paths: Sequence[Path],
    inputs: Sequence[Path],
    *,
    policy: Path | None = None,
    gold: Path | None = None,
    budgets: Sequence[str] = (),
    scorer: str | None = None,
    keep_pii: bool = False,
    errors: list[InputError],
) -> Experiment:
    """The experiment of the failing traces of ``aem-strands trace`` output at ``paths``, read with the trace files
    ``inputs``, under an ``AemTraceEvaluator`` of ``policy``, ``budgets`` (``NAME=VALUE``, as ``--budget``) and
    ``scorer``, each trace redacted with one ``Redactor`` for the run unless ``keep_pii``; each case is judged before
    it is kept: one that would not reproduce its record is appended to ``errors``, as is every record that cannot be
    a case (see the module docstring)."""
    import argparse

    from aem_strands.options import options_from_args  # NAME=VALUE read as `trace --budget` reads it
    from aem_strands.strands.trace_evaluator import AemTraceEvaluator

    given = options_from_args(argparse.Namespace(budgets=list(budgets))).budgets
    options: dict[str, Any] = {"budgets": dict(given)} if given else {}
    if scorer is not None:
        options["scorer"] = scorer
    evaluator = AemTraceEvaluator(policy=None if policy is None else str(policy), **options)
    found = TraceInputs(inputs)
    entries = gold_entries(gold)
    redact = None if keep_pii else run_redactor()
    cases: list[Case[Any, Any]] = []
    seen: set[str] = set()
    for path in paths:
        try:
            for case in trace_output_cases(path, found, entries):
                if isinstance(case, InputError):
                    errors.append(case)
                elif case.name not in seen:
                    seen.add(str(case.name))
                    kept = checked_case(case, evaluator, redact)
                    if isinstance(kept, str):
                        named = case.name if redact is None else str(redact(str(case.name)))  # as in the case
                        errors.append(InputError(f"not exported: {kept}", Location(str(path), trace_id=named)))
                    else:
                        cases.append(kept)
        except InputError as error:
            errors.append(error)
    return Experiment(cases=cases, evaluators=[evaluator])
