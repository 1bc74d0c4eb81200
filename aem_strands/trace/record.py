"""The JSON record of a judged trace: what the CLI writes a line of, what reports and the Strands adapter read.

``trace_record(result)`` gives ``source{file, line, index}, trace_id, case_id, status, test_pass, veto, steps,
metadata, step_metadata, dimensions{name: {pass, applicable, gate, checked, reason, findings}},
first_critical_failure_step, critical_rule, downstream_failures, root_cause_hypothesis, affected_layers, evidence,
suggested_fix, regression_asset``; ``error_record(error)`` gives ``source, error{file, line, index, ...,
message}`` for an input that could not be read. Personal data is redacted by default (``aem_strands.trace.pii``:
e-mail, phone, card, government id, address, secrets replaced by stable tokens); pass one
``Redactor().redact_json`` for a whole run so the same value gets the same token in every record, or ``None`` to
keep the values (``--keep-pii``). ``source`` is never redacted (``with_source``): it is where the input was read
(the file named on the command line, a line number, an element index), no value of the trace, and it is what
joins a record to its input whatever redaction does to an id. NaN and infinite numbers become ``null``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from enum import Enum
from typing import cast

from aem_strands.errors import InputError
from aem_strands.trace.types import TraceResult, TraceSource
from aem_strands.types import JsonValue

Redact = Callable[[JsonValue], JsonValue]
"""Redaction of a JSON value (strings inside it), such as ``Redactor().redact_json``."""


class _Default(Enum):
    REDACT = "redact"


DEFAULT_REDACTION = _Default.REDACT
"""Redact with a fresh ``aem_strands.trace.pii.Redactor`` (tokens stable within the record)."""


def _finite(value: JsonValue) -> JsonValue:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value  # most leaves: what the checks below return them as, without the costly Mapping check
    if kind is dict:
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def unredacted_record(result: TraceResult) -> dict[str, JsonValue]:
    """The record of ``result`` with the values as they are (see the module docstring)."""
    diagnosis = result.diagnosis
    record: dict[str, JsonValue] = {
        "source": _source(result.source),
        "trace_id": result.trace_id,
        "case_id": result.case_id,
        "status": result.status.value,
        "test_pass": result.test_pass,
        "veto": result.veto,
        "steps": result.steps,
        "metadata": dict(result.metadata),
        "step_metadata": {step_id: dict(meta) for step_id, meta in result.step_metadata.items()},
        "dimensions": {d.value: v.to_dict() for d, v in result.dimensions.items()},
        "first_critical_failure_step": diagnosis.first_critical_failure_step,
        "critical_rule": diagnosis.critical_rule,
        "downstream_failures": [f.to_dict() for f in diagnosis.downstream_failures],
        "root_cause_hypothesis": diagnosis.root_cause_hypothesis,
        "affected_layers": [layer.value for layer in diagnosis.affected_layers],
        "evidence": list(diagnosis.evidence),
        "suggested_fix": diagnosis.suggested_fix,
        "regression_asset": None if diagnosis.regression_asset is None else dict(diagnosis.regression_asset),
    }
    return {key: _finite(value) for key, value in record.items()}


def _source(source: TraceSource | None) -> JsonValue:
    return None if source is None else source.to_dict()


def with_source(record: dict[str, JsonValue], redact: Redact) -> dict[str, JsonValue]:
    """``record`` redacted by ``redact``, its ``source`` member as it was (see the module docstring)."""
    rest = {key: value for key, value in record.items() if key != "source"}
    redacted = redact(rest)
    if not isinstance(redacted, dict):
        raise TypeError(f"redaction must keep a JSON object an object, got {type(redacted).__name__}")
    return {"source": record.get("source"), **redacted} if "source" in record else redacted


def trace_record(result: TraceResult, redact: Redact | _Default | None = DEFAULT_REDACTION) -> dict[str, JsonValue]:
    """The JSON record of ``result``, redacted by ``redact`` (default: a fresh ``Redactor``; ``None``: not
    redacted). See the module docstring."""
    record = unredacted_record(result)
    if redact is None:
        return record
    if isinstance(redact, _Default):
        from aem_strands.trace.pii import Redactor

        redact = Redactor().redact_json
    return with_source(record, redact)


def error_record(error: InputError) -> dict[str, JsonValue]:
    """The record of an input that could not be read: where (``source``, as for a judged trace) and the error
    (see the module docstring). Not redacted here: pass it through ``with_source`` to redact its text."""
    where = error.location
    source = TraceSource(where.file, where.line, where.index)
    details = cast(dict[str, JsonValue], error.to_dict())  # its values are text, numbers and None
    return {"source": source.to_dict(), "error": details}
