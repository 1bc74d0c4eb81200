"""Result use of identifiers: a later call passing, under an identifier argument (``order_id``), a value the value
judge finds different from the one a single record (not an item of a list) reported under the same key, where the
value comes from nowhere the trace shows (the user, any observation, an earlier call): ``order_id ORDER_9`` after
the lookup answered ``order_id: ORDER_8``. A call on another item of a list, or a new value written in place of an
observed one (a new address, another flight), is none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set

from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.walk import json_leaves
from aem_strands.trace.checks.context import ValueJudge
from aem_strands.trace.checks.observed import Record, key_name
from aem_strands.trace.checks.rulings import cite, result_finding
from aem_strands.trace.types import Finding, Step
from aem_strands.types import JsonValue

IDENTIFIER_ARGUMENT = re.compile(r"(?:^|_)(?:id|number|no|code|ref|reference)$|^id$")
"""Keys of identifiers (``order_id``, ``confirmation_number``, ``id``)."""


def changed_identifiers(
    step: Step,
    keyed: Mapping[str, tuple[Record, str, JsonValue]],
    grounded: Set[str],
    values: ValueJudge,
    rule: str,
) -> list[Finding]:
    """The identifier arguments of ``step`` that differ from what a single record reported under the same key
    (``keyed``: key → record, path, value) and that nothing before gave (``grounded``: identifier keys of every
    value stated so far); findings by ``rule``."""
    findings = []
    for path, value in json_leaves(dict(step.arguments)):
        key = key_name(path)
        held = keyed.get(key)
        if held is None or not IDENTIFIER_ARGUMENT.search(key) or not isinstance(value, (str, int)):
            continue
        record, observed_path, observed = held
        if isinstance(value, bool) or record.step is step or identifier_key(str(value)) in grounded:
            continue
        if values.same(observed, value, path) is not False:
            continue
        message = (
            f"step {step.step_id}: argument {path!r} of {step.tool_name} is {value!r}, but step "
            f"{record.step.step_id} ({record.step.tool_name}) reported {observed_path}: {observed!r}, and "
            "nothing before gave that value"
        )
        evidence: JsonValue = {"observation": cite(record.step, observed_path), "observed": {observed_path: observed},
                               "step": cite(step), "argument": path}  # fmt: skip
        findings.append(result_finding(step, rule, message, evidence))
    return findings


__all__ = ["IDENTIFIER_ARGUMENT", "changed_identifiers"]
