"""The JSON record of a judged trace: what the CLI writes a line of, what reports and the Strands adapter read.

``trace_record(result)`` gives ``trace_id, case_id, status, test_pass, veto, steps, dimensions{name: {pass,
applicable, gate, checked, reason, findings}}, first_critical_failure_step, critical_rule, downstream_failures,
root_cause_hypothesis, affected_layers, evidence, suggested_fix, regression_asset``. Personal data is redacted by
default (``aem_strands.trace.pii``: e-mail, phone, card, government id, address, secrets replaced by stable
tokens); pass one ``Redactor().redact_json`` for a whole run so the same value gets the same token in every
record, or ``None`` to keep the values (``--keep-pii``). NaN and infinite numbers become ``null``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from enum import Enum

from aem_strands.trace.types import TraceResult
from aem_strands.types import JsonValue

Redact = Callable[[JsonValue], JsonValue]
"""Redaction of a JSON value (strings inside it), such as ``Redactor().redact_json``."""


class _Default(Enum):
    REDACT = "redact"


DEFAULT_REDACTION = _Default.REDACT
"""Redact with a fresh ``aem_strands.trace.pii.Redactor`` (tokens stable within the record)."""


def _finite(value: JsonValue) -> JsonValue:
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
        "trace_id": result.trace_id,
        "case_id": result.case_id,
        "status": result.status.value,
        "test_pass": result.test_pass,
        "veto": result.veto,
        "steps": result.steps,
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


def trace_record(result: TraceResult, redact: Redact | _Default | None = DEFAULT_REDACTION) -> dict[str, JsonValue]:
    """The JSON record of ``result``, redacted by ``redact`` (default: a fresh ``Redactor``; ``None``: not
    redacted). See the module docstring."""
    record = unredacted_record(result)
    if redact is None:
        return record
    if isinstance(redact, _Default):
        from aem_strands.trace.pii import Redactor

        redact = Redactor().redact_json
    redacted = redact(record)
    if not isinstance(redacted, dict):
        raise TypeError(f"redaction must keep a JSON object an object, got {type(redacted).__name__}")
    return redacted
