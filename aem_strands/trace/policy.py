"""The policy of trajectory evaluation (``--policy FILE``, ``EvalOptions.policy``, and a trace's own
``environment``): its file schema, reading it into an ``Environment``, writing it back, and merging a run's policy
with a trace's own environment (``merge_environment``: restrictions only add up, so neither a trace nor the Strands
registry recorded in it lifts one of the policy's). The format is that of ``docs/TRAJECTORY.md``::

    tools: [...]                   # MCP / OpenAI / Strands definitions (aem_strands.tools); openWorldHint read here
    permissions: {denied_tools: [...]}
    destructive_tools: [...]
    untrusted_tools: [...]         # tools that read the outside world, besides those with openWorldHint
    rules: {ordering: [{tool, after, after_any, require, at_most, not_after, per}],
            handoff: [{after, observed | failed, times, to}],
            tool_selection: [{goal_pattern, allowed, forbidden}],
            sensitive_data: {forbid_in_reply: [...], forbid_to_tools: {kind: [tools]}},
            consent: {tool: required | not_required | confirm}}
    budgets: {max_steps, max_tool_calls, max_identical_calls, max_retries, max_latency_ms, max_tokens, max_cost_usd}
    expected_final_state: {...}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

from aem_strands.errors import ConfigError, Location
from aem_strands.tools import ToolCatalog, ToolDefinition, tools_from_json
from aem_strands.trace.documents import STRICT, Amount, Count, Name, first_error, read_document
from aem_strands.trace.names import ToolNameMap, in_names
from aem_strands.trace.types import (
    Budgets,
    Environment,
    HandoffRule,
    OrderingRule,
    Scalar,
    SelectionRule,
    SensitiveDataRule,
)
from aem_strands.types import JsonValue

SENSITIVE_KINDS = ("card", "iban", "government_id", "secret", "pin", "otp", "email", "phone", "address")
"""The kinds of sensitive value a policy may name (``aem_strands.trace.pii`` detects them)."""


_Values = Scalar | list[Scalar]
Positive = Annotated[int, Field(ge=1)]
_Some = Annotated[list[Name], Field(min_length=1)]


class _OrderingModel(BaseModel):
    model_config = STRICT
    tool: Name
    after: _Some | None = None
    after_any: _Some | None = None
    require: Annotated[dict[Name, _Values], Field(min_length=1)] | None = None
    at_most: Positive | None = None
    not_after: _Some | None = None
    per: Name | None = None

    @model_validator(mode="after")
    def _says_something(self) -> _OrderingModel:
        if not (self.after or self.after_any or self.require or self.at_most is not None or self.not_after):
            raise ValueError("an ordering rule needs one of after, after_any, require, at_most, not_after")
        return self


class _HandoffModel(BaseModel):
    model_config = STRICT
    after: Name
    to: list[Name] = Field(default_factory=list)
    observed: dict[Name, _Values] = Field(default_factory=dict)
    failed: bool = False
    times: Positive = 1

    @model_validator(mode="after")
    def _has_a_condition(self) -> _HandoffModel:
        if not self.observed and not self.failed:
            raise ValueError("a handoff rule needs observed values or failed: true")
        return self


class _SelectionModel(BaseModel):
    model_config = STRICT
    goal_pattern: Name
    allowed: list[Name] | None = None
    forbidden: list[Name] = Field(default_factory=list)


_Kind = Literal["card", "iban", "government_id", "secret", "pin", "otp", "email", "phone", "address"]


class _SensitiveModel(BaseModel):
    model_config = STRICT
    forbid_in_reply: list[_Kind] | None = None
    forbid_to_tools: dict[_Kind, list[Name]] = Field(default_factory=dict)


class _RulesModel(BaseModel):
    model_config = STRICT
    ordering: list[_OrderingModel] = Field(default_factory=list)
    handoff: list[_HandoffModel] = Field(default_factory=list)
    tool_selection: list[_SelectionModel] = Field(default_factory=list)
    sensitive_data: _SensitiveModel | None = None
    consent: dict[Name, Literal["required", "not_required", "confirm"]] = Field(default_factory=dict)


class _PermissionsModel(BaseModel):
    model_config = STRICT
    denied_tools: list[Name] = Field(default_factory=list)


class _BudgetsModel(BaseModel):
    model_config = STRICT
    max_steps: Count | None = None
    max_tool_calls: Count | None = None
    max_identical_calls: Count | None = None
    max_retries: Count | None = None
    max_latency_ms: Amount | None = None
    max_tokens: Count | None = None
    max_cost_usd: Amount | None = None


class _EnvironmentModel(BaseModel):
    model_config = STRICT
    tools: list[Any] | dict[str, Any] | None = None
    permissions: _PermissionsModel | None = None
    destructive_tools: list[Name] = Field(default_factory=list)
    untrusted_tools: list[Name] = Field(default_factory=list)
    rules: _RulesModel | None = None
    budgets: _BudgetsModel | None = None
    expected_final_state: dict[str, Any] | None = None


# --- validation errors -----------------------------------------------------------------------------------------------


def _values(given: Mapping[str, Scalar | list[Scalar]]) -> tuple[tuple[str, tuple[Scalar, ...]], ...]:
    return tuple((k, tuple(v) if isinstance(v, list) else (v,)) for k, v in given.items())


def _open_world(raw: list[Any] | dict[str, Any] | None, source: str) -> frozenset[str]:
    """The tools whose definition says ``openWorldHint: true`` (MCP; beside ``function`` in the OpenAI form)."""
    items = raw.get("tools") if isinstance(raw, Mapping) else raw
    names = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, Mapping):
            continue
        hint = (
            (item.get("annotations") or {}).get("openWorldHint")
            if isinstance(item.get("annotations"), Mapping)
            else None
        )
        if hint is not None and not isinstance(hint, bool):
            raise ConfigError(f"{source}: tools: tool {i}: openWorldHint must be true or false")
        function = item.get("function")
        body: Mapping[str, Any] = function if isinstance(function, Mapping) else item
        if hint and isinstance(body.get("name"), str):
            names.append(str(body["name"]))
    return frozenset(names)


def _ordering(r: _OrderingModel) -> OrderingRule:
    return OrderingRule(
        r.tool, tuple(r.after or ()), tuple(r.after_any or ()), _values(r.require or {}), r.at_most,
        tuple(r.not_after or ()), r.per,
    )  # fmt: skip


def _environment(model: _EnvironmentModel, source: str) -> Environment:
    tools = ToolCatalog() if model.tools is None else tools_from_json(model.tools, f"{source}: tools")
    rules = model.rules or _RulesModel()
    selection = []
    for i, rule in enumerate(rules.tool_selection):
        try:
            re.compile(rule.goal_pattern)
        except re.error as error:
            raise ConfigError(
                f"{source}: rules.tool_selection[{i}].goal_pattern is not a regular expression: {error}"
            ) from None
        allowed = None if rule.allowed is None else tuple(rule.allowed)
        selection.append(SelectionRule(rule.goal_pattern, allowed, tuple(rule.forbidden)))
    sensitive = SensitiveDataRule()
    if rules.sensitive_data is not None:
        given = rules.sensitive_data
        kinds = sensitive.forbid_in_reply if given.forbid_in_reply is None else tuple(given.forbid_in_reply)
        sensitive = SensitiveDataRule(kinds, {k: tuple(v) for k, v in given.forbid_to_tools.items()})
    budgets = Budgets()
    if model.budgets is not None:
        budgets = replace(budgets, **model.budgets.model_dump(exclude_unset=True))
    return Environment(
        tools=tools,
        denied_tools=frozenset(model.permissions.denied_tools if model.permissions else ()),
        destructive_tools=frozenset(model.destructive_tools),
        ordering=tuple(_ordering(r) for r in rules.ordering),
        selection=tuple(selection),
        sensitive=sensitive,
        budgets=budgets,
        expected_final_state=model.expected_final_state,
        untrusted_tools=frozenset(model.untrusted_tools) | _open_world(model.tools, source),
        handoff=tuple(HandoffRule(h.after, tuple(h.to), _values(h.observed), h.failed, h.times) for h in rules.handoff),
        consent=dict(rules.consent),
    )


def environment_from_json(data: object, source: str = "policy") -> Environment:
    """An ``Environment`` from decoded JSON or YAML in the policy format (see the module docstring).

    Raises ``ConfigError`` naming ``source`` and the field when ``data`` does not follow the format.
    """
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: a policy must be an object, got {type(data).__name__}")
    try:
        model = _EnvironmentModel.model_validate(dict(data))
    except ValidationError as error:
        problem = first_error(error, "", Location())
        raise ConfigError(f"{source}: field {problem.location.field!r}: {problem.message}") from None
    return _environment(model, source)


def load_policy(path: str | Path) -> Environment:
    """Read a policy file (JSON, or YAML by suffix); raises ``ConfigError`` naming the file and field."""
    return environment_from_json(read_document(Path(path), "policy file"), f"policy file {path}")


def as_environment(value: Environment | str | Path | Mapping[str, Any] | None) -> Environment | None:
    """An environment from an environment, a policy file path or decoded JSON (``None`` stays ``None``)."""
    if value is None or isinstance(value, Environment):
        return value
    if isinstance(value, (str, Path)):
        return load_policy(value)
    return environment_from_json(value)


def _values_json(given: tuple[tuple[str, tuple[Scalar, ...]], ...]) -> dict[str, JsonValue]:
    return {k: list(v) for k, v in given}


def _ordering_json(rule: OrderingRule) -> dict[str, JsonValue]:
    out: dict[str, JsonValue] = {"tool": rule.tool}
    for key in ("after", "after_any", "not_after"):
        if getattr(rule, key):
            out[key] = list(getattr(rule, key))
    if rule.require:
        out["require"] = _values_json(rule.require)
    if rule.at_most is not None:
        out["at_most"] = rule.at_most
    if rule.per is not None:
        out["per"] = rule.per
    return out


def environment_to_json(env: Environment) -> dict[str, JsonValue]:
    """An environment in the policy format (``environment_from_json`` reads it back to an equal value)."""
    budgets = {f.name: getattr(env.budgets, f.name) for f in fields(Budgets)}
    return {
        "tools": env.tools.to_list(),
        "permissions": {"denied_tools": sorted(env.denied_tools)},
        "destructive_tools": sorted(env.destructive_tools),
        "untrusted_tools": sorted(env.untrusted_tools),
        "rules": {
            "ordering": [_ordering_json(r) for r in env.ordering],
            "handoff": [
                {
                    "after": h.after,
                    "to": list(h.to),
                    "observed": _values_json(h.observed),
                    "failed": h.failed,
                    "times": h.times,
                }
                for h in env.handoff
            ],
            "tool_selection": [
                {
                    "goal_pattern": r.goal_pattern,
                    "allowed": None if r.allowed is None else list(r.allowed),
                    "forbidden": list(r.forbidden),
                }
                for r in env.selection
            ],
            "sensitive_data": {
                "forbid_in_reply": list(env.sensitive.forbid_in_reply),
                "forbid_to_tools": {k: list(v) for k, v in env.sensitive.forbid_to_tools.items()},
            },
            "consent": dict(env.consent),
        },
        "budgets": budgets,
        "expected_final_state": None if env.expected_final_state is None else dict(env.expected_final_state),
    }


def _union(a: Iterable[str], b: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*a, *b]))


def _names(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """Both sets of tool names, a spelling of a name already there not added twice."""
    return a | frozenset(n for n in b if in_names(n, a) is None)


def _definition(policy: ToolDefinition, own: ToolDefinition) -> ToolDefinition:
    """One tool as the policy and the trace define it: the policy's hints and argument schemas hold, the trace
    adds what the policy leaves out (a ``destructiveHint`` true, arguments the policy does not declare)."""
    destructive = True if True in (policy.destructive, own.destructive) else policy.destructive
    if destructive is None:
        destructive = own.destructive
    properties = {**own.properties, **policy.properties}
    return ToolDefinition(
        policy.name, policy.description or own.description, policy.read_only, destructive, policy.idempotent,
        properties, _union(policy.required, own.required),
    )  # fmt: skip


def _tools(policy: ToolCatalog, own: ToolCatalog) -> ToolCatalog:
    merged = ToolNameMap({d.name: d for d in policy.definitions})
    out = dict(merged)
    for definition in own.definitions:
        name = merged.name_of(definition.name)
        if name is None:
            out.setdefault(definition.name, definition)
            continue
        out[name] = _definition(out[name], definition)
    return ToolCatalog(tuple(out.values()))


_CONSENT_RANK = {"not_required": 0, "required": 1, "confirm": 2}
"""The consent values by how much they restrict: ``confirm`` (a yes to the listed details) asks more than
``required`` (consent as a destructive tool needs), which asks more than ``not_required``."""


def _consent(policy: Mapping[str, str], own: Mapping[str, str]) -> dict[str, str]:
    """A run policy's ``rules.consent`` with a trace's own: a trace only raises a tool's value (``required`` or
    ``confirm``), never lowers one (a trace's ``required`` leaves a policy's ``confirm``)."""
    merged = dict(policy)
    for tool, need in own.items():
        if need != "not_required" and _CONSENT_RANK.get(need, 0) > _CONSENT_RANK.get(merged.get(tool, ""), -1):
            merged[tool] = need
    return merged


def merge_environment(policy: Environment | None, own: Environment | None) -> Environment:
    """The environment a trace is judged against: the run's policy and the trace's own environment (a file's
    ``environment``, or the Strands registry ``session_to_trace`` records).

    Restrictions only add up: denied, destructive and untrusted tools, ordering, hand-off and selection rules
    (every rule of both applies), the kinds forbidden in replies and the tools each kind must not reach. A tool
    both define keeps the policy's hints and argument schemas, with a ``destructiveHint`` true from either side
    (``_definition``); tool names compare as the policy engine sees them (``aem_strands.trace.names``). Budgets
    (each one the trace sets to other than the default) and the expected final state: the trace's own wins.
    ``consent`` adds up too (``_consent``): a trace's own ``required`` or ``confirm`` raises the policy's value for
    the tool, its ``not_required`` is dropped when a run's policy is given.
    """
    if policy is None or own is None:
        return own or policy or Environment()
    default = Budgets()
    changed = {f.name: getattr(own.budgets, f.name) for f in fields(Budgets)}
    changed = {k: v for k, v in changed.items() if v != getattr(default, k)}
    kinds = dict.fromkeys([*policy.sensitive.forbid_to_tools, *own.sensitive.forbid_to_tools])
    sensitive = SensitiveDataRule(
        _union(policy.sensitive.forbid_in_reply, own.sensitive.forbid_in_reply),
        {
            k: _union(policy.sensitive.forbid_to_tools.get(k, ()), own.sensitive.forbid_to_tools.get(k, ()))
            for k in kinds
        },
    )
    return Environment(
        tools=_tools(policy.tools, own.tools),
        denied_tools=_names(policy.denied_tools, own.denied_tools),
        destructive_tools=_names(policy.destructive_tools, own.destructive_tools),
        ordering=tuple(dict.fromkeys([*policy.ordering, *own.ordering])),
        selection=tuple(dict.fromkeys([*policy.selection, *own.selection])),
        sensitive=sensitive,
        budgets=replace(policy.budgets, **changed),
        expected_final_state=own.expected_final_state
        if own.expected_final_state is not None
        else policy.expected_final_state,
        untrusted_tools=_names(policy.untrusted_tools, own.untrusted_tools),
        handoff=tuple(dict.fromkeys([*policy.handoff, *own.handoff])),
        consent=_consent(policy.consent, own.consent),
    )


# --- traces ----------------------------------------------------------------------------------------------------------
