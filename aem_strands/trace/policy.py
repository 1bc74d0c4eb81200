"""The policy of trajectory evaluation (``--policy FILE``, ``EvalOptions.policy``, and a trace's own
``environment``): its file schema, reading it into an ``Environment``, writing it back, and merging a run's policy
with a trace's own environment (the trace wins key by key; denied tools, destructive tools and kinds forbidden in
replies add up, so a trace cannot lift a policy's restriction). The format is that of ``docs/TRAJECTORY.md``::

    tools: [...]                   # MCP / OpenAI / Strands definitions (aem_strands.tools)
    permissions: {denied_tools: [...]}
    destructive_tools: [...]
    rules: {ordering: [{tool, after}], tool_selection: [{goal_pattern, allowed, forbidden}],
            sensitive_data: {forbid_in_reply: [...], forbid_to_tools: {kind: [tools]}},
            consent: {tool: required | not_required}}
    budgets: {max_steps, max_tool_calls, max_identical_calls, max_retries, max_latency_ms, max_tokens, max_cost_usd}
    expected_final_state: {...}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from aem_strands.errors import ConfigError, Location
from aem_strands.tools import ToolCatalog, tools_from_json
from aem_strands.trace.documents import STRICT, Amount, Count, Name, first_error, read_document
from aem_strands.trace.types import Budgets, Environment, OrderingRule, SelectionRule, SensitiveDataRule
from aem_strands.types import JsonValue

SENSITIVE_KINDS = ("card", "government_id", "secret", "email", "phone", "address")
"""The kinds of sensitive value a policy may name (``aem_strands.trace.pii`` detects them)."""


class _OrderingModel(BaseModel):
    model_config = STRICT
    tool: Name
    after: Annotated[list[Name], Field(min_length=1)]


class _SelectionModel(BaseModel):
    model_config = STRICT
    goal_pattern: Name
    allowed: list[Name] | None = None
    forbidden: list[Name] = Field(default_factory=list)


_Kind = Literal["card", "government_id", "secret", "email", "phone", "address"]


class _SensitiveModel(BaseModel):
    model_config = STRICT
    forbid_in_reply: list[_Kind] | None = None
    forbid_to_tools: dict[_Kind, list[Name]] = Field(default_factory=dict)


class _RulesModel(BaseModel):
    model_config = STRICT
    ordering: list[_OrderingModel] = Field(default_factory=list)
    tool_selection: list[_SelectionModel] = Field(default_factory=list)
    sensitive_data: _SensitiveModel | None = None
    consent: dict[Name, Literal["required", "not_required"]] = Field(default_factory=dict)


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
    rules: _RulesModel | None = None
    budgets: _BudgetsModel | None = None
    expected_final_state: dict[str, Any] | None = None


# --- validation errors -----------------------------------------------------------------------------------------------


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
        ordering=tuple(OrderingRule(r.tool, tuple(r.after)) for r in rules.ordering),
        selection=tuple(selection),
        sensitive=sensitive,
        budgets=budgets,
        expected_final_state=model.expected_final_state,
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


def environment_to_json(env: Environment) -> dict[str, JsonValue]:
    """An environment in the policy format (``environment_from_json`` reads it back to an equal value)."""
    budgets = {f.name: getattr(env.budgets, f.name) for f in fields(Budgets)}
    return {
        "tools": env.tools.to_list(),
        "permissions": {"denied_tools": sorted(env.denied_tools)},
        "destructive_tools": sorted(env.destructive_tools),
        "rules": {
            "ordering": [{"tool": r.tool, "after": list(r.after)} for r in env.ordering],
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


def merge_environment(policy: Environment | None, own: Environment | None) -> Environment:
    """The environment a trace is judged against: its own over the run's policy, key by key.

    Tool definitions, ordering rules (by tool), selection rules (by goal pattern), ``forbid_to_tools`` (by
    kind), budgets (each one the trace sets to other than the default) and the expected final state: the
    trace's own wins. Denied tools, destructive tools, the kinds forbidden in replies and ``consent: required``
    are restrictions: a trace adds to the policy's, never lifts them (its own ``not_required`` is dropped).
    """
    if policy is None or own is None:
        return own or policy or Environment()
    tools = {d.name: d for d in policy.tools.definitions} | {d.name: d for d in own.tools.definitions}
    ordering = {r.tool: r for r in policy.ordering} | {r.tool: r for r in own.ordering}
    selection = {r.goal_pattern: r for r in policy.selection} | {r.goal_pattern: r for r in own.selection}
    default = Budgets()
    changed = {f.name: getattr(own.budgets, f.name) for f in fields(Budgets)}
    changed = {k: v for k, v in changed.items() if v != getattr(default, k)}
    sensitive = SensitiveDataRule(
        _union(policy.sensitive.forbid_in_reply, own.sensitive.forbid_in_reply),
        {**policy.sensitive.forbid_to_tools, **own.sensitive.forbid_to_tools},
    )
    return Environment(
        tools=ToolCatalog(tuple(tools.values())),
        denied_tools=policy.denied_tools | own.denied_tools,
        destructive_tools=policy.destructive_tools | own.destructive_tools,
        ordering=tuple(ordering.values()),
        selection=tuple(selection.values()),
        sensitive=sensitive,
        budgets=replace(policy.budgets, **changed),
        expected_final_state=own.expected_final_state
        if own.expected_final_state is not None
        else policy.expected_final_state,
        consent={**policy.consent, **{t: n for t, n in own.consent.items() if n == "required"}},
    )


# --- traces ----------------------------------------------------------------------------------------------------------
