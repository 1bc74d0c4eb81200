"""State: the final state is the expected one, and identity or permission state is not lost between steps.

- ``state.final_state_mismatch``: each key of the expected final state (the trace's gold, else the
  environment's ``expected_final_state``) must be in the trace's ``final_state`` (else the last step's
  ``state_after``) with the same value under typed equivalence (``ctx.values``: ``approved`` = ``Approved``,
  ``40`` = ``40.0``, nested objects leaf by leaf). Keys the trace adds are not checked. Where the value judge
  cannot decide, the judge is asked when one is given (an unanswered question is ``undecided``); without one
  the values differ, as for a strict argument (``pending`` is not ``approved``).
- ``state.identity_lost``: a key that records who the user is or what they may do (``authenticated``,
  ``verified``, ``identity_verified``, ``user_id``, ``role``, ``permissions``, ``logged_in``, and names ending
  in ``_verified`` / ``_authenticated``) set (not false, null or empty) in one step's ``state_after`` and, in the
  next step that records a ``state_before``, missing, emptied or changed.

Not applicable when there is no expected final state and no step state holds such a key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import step_fragment
from aem_strands.trace.types import (
    Dimension,
    DimensionVerdict,
    Environment,
    Finding,
    FindingMethod,
    Step,
    Trace,
    not_applicable,
)
from aem_strands.types import JsonValue

IDENTITY_KEYS = frozenset(
    {"authenticated", "verified", "identity_verified", "is_verified", "is_authenticated", "user_id", "role", "roles",
     "permissions", "logged_in", "is_logged_in", "auth_level", "scopes"}
)  # fmt: skip
"""State keys (case-folded) that record the user's identity or permissions."""

_IDENTITY_SUFFIX = re.compile(r"_(verified|authenticated)$")
_MISSING = object()


def is_identity_key(key: str) -> bool:
    """Whether a state key records identity or permission (see ``IDENTITY_KEYS``)."""
    folded = key.casefold()
    return folded in IDENTITY_KEYS or _IDENTITY_SUFFIX.search(folded) is not None


def _is_set(value: JsonValue) -> bool:
    return value not in (None, False, "", [], {}) and not (isinstance(value, int) and value == 0)


def _expected_state(trace: Trace, env: Environment) -> tuple[Mapping[str, JsonValue] | None, str]:
    if trace.gold is not None and trace.gold.expected_final_state is not None:
        return trace.gold.expected_final_state, "gold"
    if env.expected_final_state is not None:
        return env.expected_final_state, "policy"
    return None, ""


def _final_state(trace: Trace) -> tuple[Mapping[str, JsonValue] | None, str]:
    if trace.final_state is not None:
        return trace.final_state, "final_state"
    for step in reversed(trace.steps):
        if step.state_after is not None:
            return step.state_after, f"state after step {step.step_id}"
    return None, ""


def _final_state_findings(
    trace: Trace, env: Environment, ctx: TraceContext, undecided: list[str]
) -> tuple[list[Finding], str]:
    expected, origin = _expected_state(trace, env)
    if expected is None:
        return [], ""
    found, where = _final_state(trace)
    if found is None:
        undecided.append(f"the {origin} gives an expected final state, but the trace records no state to check")
        return [], "expected final state (no state recorded)"
    findings: list[Finding] = []
    for key, want in expected.items():
        have = found.get(key, _MISSING)
        method = FindingMethod.RULE
        if have is _MISSING:
            same: bool | None = False
            shown = "missing"
        else:
            same = ctx.values.same(want, have, key)
            shown = repr(have)
            if same is None and ctx.judge is not None:
                question = f"Is the final state value {have!r} of {key!r} the same as the expected {want!r}?"
                same = ctx.judge.decide(question, {"key": key, "expected": want, "found": have})
                method = FindingMethod.JUDGE
                if same is None:
                    undecided.append(question)
            elif same is None:
                # As for a strict argument: without a judge, only exact match and typed normalisation pass.
                same, shown = False, f"{have!r} (not the same under typed normalisation; no judge to ask)"
        if same is False:
            findings.append(
                Finding(
                    Dimension.STATE,
                    "state.final_state_mismatch",
                    f"final state {key!r}: expected {want!r} ({origin}), found {shown} ({where})",
                    None,
                    None,
                    {"key": key, "expected": want, "found": None if have is _MISSING else have, "where": where},
                    method,
                )
            )
    return findings, f"{len(expected)} expected final state key(s) ({origin})"


def _identity_findings(trace: Trace, ctx: TraceContext) -> tuple[list[Finding], int]:
    findings: list[Finding] = []
    seen_keys: set[str] = set()
    before: Step | None = None  # the last step with a state_after
    for step in trace.steps:
        for state in (step.state_before, step.state_after):
            seen_keys.update(k for k in state or {} if is_identity_key(k))
        if before is not None and before.state_after is not None and step.state_before is not None:
            for key, value in before.state_after.items():
                if not is_identity_key(key) or not _is_set(value):
                    continue
                now = step.state_before.get(key, _MISSING)
                if now is _MISSING:
                    lost = "is missing"
                elif not _is_set(now):
                    lost = f"is {now!r}"
                elif ctx.values.same(value, now, key) is False:
                    lost = f"changed to {now!r}"
                else:
                    continue
                findings.append(
                    Finding(
                        Dimension.STATE,
                        "state.identity_lost",
                        f"step {step.step_id}: {key!r} was {value!r} after step {before.step_id} but {lost} "
                        f"before step {step.step_id}: the agent lost who the user is or what they may do",
                        step.step_id,
                        step.index,
                        {
                            "key": key,
                            "after": {"step_id": before.step_id, "state_after": dict(before.state_after)},
                            "before": step_fragment(step) | {"state_before": dict(step.state_before)},
                        },
                    )
                )
        if step.state_after is not None:
            before = step
    return findings, len(seen_keys)


def check_state(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """The final state against the expected one, identity and permission state kept (see the module docstring)."""
    undecided: list[str] = []
    final_findings, final_checked = _final_state_findings(trace, env, ctx, undecided)
    identity_findings, identity_keys = _identity_findings(trace, ctx)
    if not final_checked and not identity_keys:
        return not_applicable(Dimension.STATE, "no expected final state and no identity or permission state")
    checked = ", ".join(
        part
        for part in (final_checked, f"{identity_keys} identity/permission key(s) followed" if identity_keys else "")
        if part
    )
    findings = tuple(final_findings + identity_findings)
    return DimensionVerdict(Dimension.STATE, not findings, findings, checked, "", tuple(undecided))


__all__ = ["IDENTITY_KEYS", "check_state", "is_identity_key"]
