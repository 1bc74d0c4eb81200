"""Whether a regression case of ``aem-strands trace`` output reproduces its record's verdict, its personal data
redacted or not (``export-regression``; the cases are ``aem_strands.strands.trace_regression``'s).

A case is replayed by ``offline_task`` and judged by the export's ``AemTraceEvaluator`` (``rejudge``); its verdict
(``verdict_of``: status, veto, first critical step, critical rule, failing dimensions) must be the one its
``metadata.regression`` records. Redacted (``checked_case`` with a run's ``Redactor``, ``redacted_case``), the case
holds tokens in place of the values, the same token for the same value, so grounding of a value the user gave still
holds; a case whose values decide its verdict (a card number shown in a reply is vetoed, its token is not) is not
reproduced redacted, and the reason says that ``--keep-pii`` exports it with its values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from strands_evals import Case

from aem_strands.errors import AemError
from aem_strands.strands.cases import AEM_KEY
from aem_strands.types import JsonValue

Redact = Callable[[JsonValue], JsonValue]
"""Redaction of a JSON value, as ``Redactor().redact_json`` (``aem_strands.trace.record.Redact``)."""


def redacted_case(case: Case[Any, Any], redact: Redact) -> Case[Any, Any]:
    """``case`` (of ``trace_output_cases``) with its trace document redacted by ``redact`` and named by the redacted
    trace id; its ``metadata.regression`` (verdict fields, files) is kept as it is."""
    metadata = dict(case.metadata or {})
    document = redact(metadata[AEM_KEY]["trace"])
    if not isinstance(document, dict):
        raise TypeError(f"redaction must keep a JSON object an object, got {type(document).__name__}")
    name = str(document.get("trace_id"))
    metadata[AEM_KEY] = {**metadata[AEM_KEY], "trace": document}
    return Case(name=name, input=document.get("goal") or name, metadata=metadata)


VERDICT_KEYS = ("status", "veto", "first_critical_failure_step", "critical_rule")
"""The fields of a trace record that a regression case must reproduce, with its failing dimensions."""


def verdict_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict of a trace record: its ``VERDICT_KEYS`` and ``failing`` (the sorted names of the dimensions that
    fail)."""
    dimensions = record.get("dimensions")
    items = dimensions.items() if isinstance(dimensions, Mapping) else ()
    failing = sorted(k for k, v in items if isinstance(v, Mapping) and v.get("pass") is False)
    return {**{key: record.get(key) for key in VERDICT_KEYS}, "failing": failing}


@dataclass(frozen=True)
class Rejudged:
    """A case judged again: its record (values as in the case) and, when its verdict is not its record's, what
    differs (``None``: reproduced)."""

    record: dict[str, JsonValue] | None
    differs: str | None


def _said(verdict: Mapping[str, Any]) -> str:
    return f"{verdict['status']} ({verdict['first_critical_failure_step']})"


def _differs(found: Mapping[str, Any], wanted: Mapping[str, Any]) -> str:
    said = f"judged {_said(found)}, but the record says {_said(wanted)}"
    other = [
        f"{key} {found[key]!r} vs {wanted[key]!r}" for key in ("veto", "critical_rule") if found[key] != wanted[key]
    ]
    if found["failing"] != wanted["failing"]:
        other.append(
            f"failing dimensions {', '.join(found['failing']) or 'none'} vs {', '.join(wanted['failing']) or 'none'}"
        )
    return said + (f" ({'; '.join(other)})" if other else "")


def rejudge(case: Case[Any, Any], evaluator: Any) -> Rejudged:
    """``case`` replayed by ``offline_task`` and judged by ``evaluator``, against the verdict its
    ``metadata.regression`` records (``verdict_of``)."""
    from strands_evals.types import EvaluationData

    from aem_strands.strands.tasks import offline_task
    from aem_strands.trace.record import trace_record

    output = offline_task(case)
    data = EvaluationData(name=case.name, input=case.input, metadata=case.metadata, actual_output=output["output"],
                          actual_trajectory=output["trajectory"])  # fmt: skip
    want = (case.metadata or {}).get("regression") or {}
    try:
        judged = trace_record(evaluator.judge_case(data), None)
    except AemError as error:
        return Rejudged(None, f"could not be judged again: {error}")
    found = verdict_of(judged)
    wanted = {**{key: want.get(key) for key in VERDICT_KEYS}, "failing": want.get("failing")}
    if found == wanted:
        return Rejudged(judged, None)
    return Rejudged(judged, _differs(found, wanted))


_RERUN = "give the --policy, --gold, --budget and --scorer of the trace run"


def run_redactor() -> Redact:
    """A fresh ``Redactor``'s ``redact_json``: one for a whole run, so a value gets one token in every case."""
    from aem_strands.trace.pii import Redactor

    return Redactor().redact_json


def checked_case(case: Case[Any, Any], evaluator: Any, redact: Redact | None) -> Case[Any, Any] | str:
    """The case to write (redacted by ``redact`` unless ``None``) when ``evaluator`` reproduces its record's verdict,
    else why not: the verdict judged against the record's, and what to do."""
    if redact is None:
        plain = rejudge(case, evaluator)
        return case if plain.differs is None else f"{plain.differs}: {_RERUN}"
    hidden = redacted_case(case, redact)
    judged = rejudge(hidden, evaluator)
    if judged.differs is None and judged.record is not None:
        # the record's hypothesis may hold the values (a trace run with --keep-pii) or another run's tokens
        metadata = dict(hidden.metadata or {})
        metadata["regression"] = {**metadata["regression"], "reason": judged.record.get("root_cause_hypothesis")}
        return Case(name=hidden.name, input=hidden.input, metadata=metadata)
    plain = rejudge(case, evaluator)
    if plain.differs is None:
        it = "it is" if judged.record is not None else "it"
        return (
            f"with its personal data redacted, {it} {judged.differs}; the values decide its verdict: --keep-pii "
            "exports it with its values"
        )
    return f"{plain.differs if plain.record is not None else judged.differs}: {_RERUN}"
