"""Loading and validating traces, policies and trace gold (SPEC §9).

A trace file is JSON (one trace object, or an array of them), JSONL (one trace a line) or YAML (one trace per
document, or a list of them); the format is chosen by suffix (``.yaml`` / ``.yml``: YAML; the rest as
``aem_strands.decode`` chooses, with its limits on depth, numbers and strings). Each trace is validated with the
pydantic schema below; a bad trace is an ``InputError`` naming the file, line, trace id, step and field, and is
skipped: the other traces still load. A file that cannot be read at all is one error record too, and the next
file is read. Two traces with the same ``trace_id`` (in one call, across its files) make the later one an error;
so do two steps with the same ``step_id`` in one trace.

The policy format (``--policy FILE``, and a trace's own ``environment``) is that of ``docs/TRAJECTORY.md``::

    tools: [...]                   # MCP / OpenAI / Strands definitions (aem_strands.tools)
    permissions: {denied_tools: [...]}
    destructive_tools: [...]
    rules: {ordering: [{tool, after}], tool_selection: [{goal_pattern, allowed, forbidden}],
            sensitive_data: {forbid_in_reply: [...], forbid_to_tools: {kind: [tools]}}}
    budgets: {max_steps, max_tool_calls, max_identical_calls, max_retries, max_latency_ms, max_tokens, max_cost_usd}
    expected_final_state: {...}
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aem_strands.decode import find_flaw, format_of, read_records
from aem_strands.errors import AemError, ConfigError, InputError, Location, printable
from aem_strands.load import read_lines
from aem_strands.tools import ToolCatalog, tools_from_json
from aem_strands.trace.types import (
    ActionType,
    Budgets,
    Environment,
    OrderingRule,
    SelectionRule,
    SensitiveDataRule,
    Step,
    StepCost,
    Trace,
    TraceGold,
)
from aem_strands.types import JsonValue

_STRICT = ConfigDict(extra="forbid", strict=True)
YAML_SUFFIXES = (".yaml", ".yml")
SENSITIVE_KINDS = ("card", "government_id", "secret", "email", "phone", "address")
"""The kinds of sensitive value a policy may name (``aem_strands.trace.pii`` detects them)."""

_Count = Annotated[int, Field(ge=0)]
_Amount = Annotated[float, Field(ge=0, allow_inf_nan=False)]
_Name = Annotated[str, Field(min_length=1)]


# --- the file schema -------------------------------------------------------------------------------------------------


class _CostModel(BaseModel):
    model_config = _STRICT
    input_tokens: _Count | None = None
    output_tokens: _Count | None = None
    usd: _Amount | None = None


class _StepModel(BaseModel):
    model_config = _STRICT
    step_id: _Name | int | None = None
    action_type: Literal["response", "tool_call", "state_update", "handoff", "user"]
    tool_name: _Name | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)
    observation: Any = None
    content: str | None = None
    state_before: dict[str, Any] | None = None
    state_after: dict[str, Any] | None = None
    error: str | None = None
    latency_ms: _Amount | None = None
    cost: _CostModel | _Amount | None = None
    """Tokens and money, or a bare number: money (USD)."""


class _ExpectedToolModel(BaseModel):
    model_config = _STRICT
    tool: _Name
    arguments: dict[str, Any] | None = None


class _GoldModel(BaseModel):
    model_config = _STRICT
    expected_tools: list[_Name | _ExpectedToolModel] | None = None
    expected_final_state: dict[str, Any] | None = None
    expected_final_response: str | None = None


class _EvaluationModel(_GoldModel):
    # Besides the gold fields, a trace's evaluation block may carry the user's own labels (kept in Trace.evaluation).
    model_config = ConfigDict(extra="allow", strict=True)


class _TraceModel(BaseModel):
    model_config = _STRICT
    trace_id: _Name
    case_id: _Name | None = None
    goal: str | None = None
    initial_state: dict[str, Any] = Field(default_factory=dict)
    environment: dict[str, Any] | None = None
    steps: Annotated[list[Any], Field(min_length=1)]
    final_response: str | None = None
    final_state: dict[str, Any] | None = None
    metrics: dict[str, Any] = Field(default_factory=dict)
    evaluation: _EvaluationModel | None = None


class _OrderingModel(BaseModel):
    model_config = _STRICT
    tool: _Name
    after: Annotated[list[_Name], Field(min_length=1)]


class _SelectionModel(BaseModel):
    model_config = _STRICT
    goal_pattern: _Name
    allowed: list[_Name] | None = None
    forbidden: list[_Name] = Field(default_factory=list)


_Kind = Literal["card", "government_id", "secret", "email", "phone", "address"]


class _SensitiveModel(BaseModel):
    model_config = _STRICT
    forbid_in_reply: list[_Kind] | None = None
    forbid_to_tools: dict[_Kind, list[_Name]] = Field(default_factory=dict)


class _RulesModel(BaseModel):
    model_config = _STRICT
    ordering: list[_OrderingModel] = Field(default_factory=list)
    tool_selection: list[_SelectionModel] = Field(default_factory=list)
    sensitive_data: _SensitiveModel | None = None


class _PermissionsModel(BaseModel):
    model_config = _STRICT
    denied_tools: list[_Name] = Field(default_factory=list)


class _BudgetsModel(BaseModel):
    model_config = _STRICT
    max_steps: _Count | None = None
    max_tool_calls: _Count | None = None
    max_identical_calls: _Count | None = None
    max_retries: _Count | None = None
    max_latency_ms: _Amount | None = None
    max_tokens: _Count | None = None
    max_cost_usd: _Amount | None = None


class _EnvironmentModel(BaseModel):
    model_config = _STRICT
    tools: list[Any] | dict[str, Any] | None = None
    permissions: _PermissionsModel | None = None
    destructive_tools: list[_Name] = Field(default_factory=list)
    rules: _RulesModel | None = None
    budgets: _BudgetsModel | None = None
    expected_final_state: dict[str, Any] | None = None


# --- validation errors -----------------------------------------------------------------------------------------------


def _field_name(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _model_loc(loc: Sequence[int | str]) -> list[int | str]:
    # pydantic names the member of a union it tried ("str", "_ExpectedToolModel", "constrained-str"...): not a field.
    return [p for p in loc if not (isinstance(p, str) and (p[:1].isupper() or p[:1] == "_" or "-" in p or p in {
        "str", "int", "float", "bool", "list", "dict"}))]  # fmt: skip


def _first_error(error: ValidationError, prefix: str, where: Location) -> InputError:
    detail = error.errors()[0]
    path = _field_name([prefix, *_model_loc(detail["loc"])] if prefix else _model_loc(detail["loc"]))
    found = detail.get("input")
    shown = "" if isinstance(found, (dict, list)) or "missing" in detail["type"] else f", got {found!r}"
    return InputError(printable(f"{detail['msg']}{shown}"), replace(where, field=path or None))


# --- environments ----------------------------------------------------------------------------------------------------


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
        problem = _first_error(error, "", Location())
        raise ConfigError(f"{source}: field {problem.location.field!r}: {problem.message}") from None
    return _environment(model, source)


def _read_document(path: Path, what: str) -> object:
    """The one JSON or YAML document of a policy or gold file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{what} {path}: cannot read: {error}") from None
    try:
        data = yaml.safe_load(text) if path.suffix.lower() in YAML_SUFFIXES else _json_document(text)
    except (yaml.YAMLError, ValueError) as error:
        raise ConfigError(f"{what} {path}: not {'YAML' if path.suffix.lower() in YAML_SUFFIXES else 'JSON'}: "
                          f"{printable(str(error))}") from None  # fmt: skip
    data = _plain(data)
    flaw = find_flaw(data)
    if flaw is not None:
        raise ConfigError(f"{what} {path}: field {flaw.path!r}: {flaw.message}")
    return data


def _json_document(text: str) -> object:
    records = list(read_records([line.encode() for line in text.splitlines(keepends=True)], "", "json"))
    if len(records) == 1 and records[0].kind == "document":
        return records[0].value
    bad = next((r for r in records if r.error is not None), None)
    if bad is not None:
        raise ValueError(f"line {bad.line}: {bad.error}")
    return [r.value for r in records]


def load_policy(path: str | Path) -> Environment:
    """Read a policy file (JSON, or YAML by suffix); raises ``ConfigError`` naming the file and field."""
    return environment_from_json(_read_document(Path(path), "policy file"), f"policy file {path}")


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
    trace's own wins. Denied tools, destructive tools and the kinds forbidden in replies are restrictions: a
    trace adds to the policy's, never lifts them.
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
    )


# --- traces ----------------------------------------------------------------------------------------------------------


def _gold(model: _GoldModel) -> TraceGold | None:
    if model.expected_tools is None and model.expected_final_state is None and model.expected_final_response is None:
        return None
    tools = arguments = None
    if model.expected_tools is not None:
        tools = tuple(t if isinstance(t, str) else t.tool for t in model.expected_tools)
        if any(not isinstance(t, str) and t.arguments is not None for t in model.expected_tools):
            arguments = tuple(None if isinstance(t, str) else t.arguments for t in model.expected_tools)
    return TraceGold(tools, arguments, model.expected_final_state, model.expected_final_response)


def _step(raw: object, index: int, where: Location) -> Step:
    field = f"steps[{index}]"
    if not isinstance(raw, dict):
        raise InputError(f"a step must be an object, got {type(raw).__name__}", replace(where, field=field))
    step_id = raw.get("step_id")
    here = replace(where, step_id=str(step_id) if isinstance(step_id, (str, int)) else None)
    try:
        model = _StepModel.model_validate(raw)
    except ValidationError as error:
        raise _first_error(error, field, here) from None
    kind = ActionType(model.action_type)
    if kind is ActionType.TOOL_CALL and model.tool_name is None:
        raise InputError("a tool_call step needs a tool_name", replace(here, field=f"{field}.tool_name"))
    if kind in (ActionType.RESPONSE, ActionType.USER) and model.content is None:
        raise InputError(f"a {kind.value} step needs its text in content", replace(here, field=f"{field}.content"))
    cost = model.cost
    return Step(
        step_id=str(index + 1) if model.step_id is None else str(model.step_id),
        index=index,
        action_type=kind,
        tool_name=model.tool_name,
        arguments=model.arguments,
        observation=model.observation,
        content=model.content,
        state_before=model.state_before,
        state_after=model.state_after,
        error=model.error,
        latency_ms=model.latency_ms,
        cost=None if cost is None else StepCost(usd=cost) if isinstance(cost, float) else StepCost(**cost.model_dump()),
    )


def parse_trace(raw: object, where: Location | None = None) -> Trace:
    """Validate one trace object; ``where`` names the file and line for error messages.

    Raises ``InputError`` naming the trace, step and field (see the module docstring).
    """
    where = where or Location()
    if not isinstance(raw, dict):
        raise InputError(f"a trace must be an object, got {type(raw).__name__}", where)
    trace_id = raw.get("trace_id")
    where = replace(where, trace_id=trace_id if isinstance(trace_id, str) and trace_id else None)
    flaw = find_flaw(raw)
    if flaw is not None:
        raise InputError(flaw.message, replace(where, field=flaw.path or None))
    try:
        model = _TraceModel.model_validate(raw)
    except ValidationError as error:
        raise _first_error(error, "", where) from None
    steps = tuple(_step(s, i, where) for i, s in enumerate(model.steps))
    seen: set[str] = set()
    for step in steps:
        if step.step_id in seen:
            raise InputError("duplicate step_id", replace(where, step_id=step.step_id, field=f"steps[{step.index}]"))
        seen.add(step.step_id)
    environment = None
    if model.environment is not None:
        try:
            environment = environment_from_json(model.environment, "environment")
        except ConfigError as error:
            raise InputError(str(error), replace(where, field="environment")) from None
    evaluation = model.evaluation or _EvaluationModel()
    return Trace(
        trace_id=model.trace_id,
        steps=steps,
        case_id=model.case_id,
        goal=model.goal,
        initial_state=model.initial_state,
        environment=environment,
        final_response=model.final_response,
        final_state=model.final_state,
        metrics=model.metrics,
        evaluation=evaluation.model_dump(exclude_unset=True),
        gold=_gold(evaluation),
    )


@dataclass(frozen=True)
class _Unit:
    where: Location
    value: Any = None
    error: str | None = None


def _plain(value: Any) -> Any:
    """A YAML value as JSON would give it: dates and times as ISO text (YAML reads ``2024-05-01`` as a date)."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    return value


def _yaml_units(path: str) -> Iterator[_Unit]:
    try:
        text = b"".join(read_lines(path)).decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (at offset {error.start}): is this a binary file?", Location(path)) from None
    loader = yaml.SafeLoader(text)
    try:
        empty = True
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                continue
            empty = False
            items = node.value if isinstance(node, yaml.SequenceNode) else [node]
            for i, item in enumerate(items):
                where = Location(path, line=item.start_mark.line + 1)
                if isinstance(node, yaml.SequenceNode):
                    where = replace(where, index=i)
                yield _Unit(where, _plain(loader.construct_document(item)))
        if empty:
            raise InputError("the file is empty", Location(path))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = None if mark is None else mark.line + 1
        raise InputError(
            f"malformed YAML: {printable(str(error.problem or error))}", Location(path, line=line)
        ) from None
    except yaml.YAMLError as error:
        raise InputError(f"malformed YAML: {printable(str(error))}", Location(path)) from None
    finally:
        loader.dispose()


def _units(path: str) -> Iterator[_Unit]:
    if Path(path).suffix.lower() in YAML_SUFFIXES:
        yield from _yaml_units(path)
        return
    for record in read_records(read_lines(path), path, format_of(path)):
        where = Location(path, line=record.line, index=record.index)
        yield _Unit(where, record.value, record.error)


def iter_traces(paths: str | Path | Iterable[str | Path]) -> Iterator[Trace | InputError]:
    """Every trace of ``paths`` in order, or the ``InputError`` that kept it from loading (see the module docstring).

    Never raises for bad input: an unreadable file is one error (after the traces read before the problem) and
    the next file is read.
    """
    seen: set[str] = set()
    for path in [paths] if isinstance(paths, (str, Path)) else paths:
        file = str(path)
        try:
            for unit in _units(file):
                if unit.error is not None:
                    yield InputError(unit.error, unit.where)
                    continue
                try:
                    trace = parse_trace(unit.value, unit.where)
                except InputError as error:
                    yield error
                    continue
                except (AemError, ValueError, TypeError) as error:  # a value no check foresaw: this trace's error
                    yield InputError(f"could not be loaded: {printable(str(error))}", unit.where)
                    continue
                if trace.trace_id in seen:
                    yield InputError(
                        "duplicate trace_id (an earlier trace has it)",
                        replace(unit.where, trace_id=trace.trace_id, field="trace_id"),
                    )
                    continue
                seen.add(trace.trace_id)
                yield trace
        except InputError as error:
            yield error


@dataclass(frozen=True)
class TraceSet(Sequence[Trace]):
    """The valid traces of one or more files, and the errors of the invalid ones."""

    traces: tuple[Trace, ...]
    errors: tuple[InputError, ...] = ()

    def __len__(self) -> int:
        return len(self.traces)

    def __getitem__(self, index: int) -> Trace:  # type: ignore[override]  # slices are not needed
        return self.traces[index]

    def __iter__(self) -> Iterator[Trace]:
        return iter(self.traces)


def load_traces(paths: str | Path | Iterable[str | Path]) -> TraceSet:
    """All traces of ``paths`` at once: the valid ones and the errors of the rest (see ``iter_traces``)."""
    loaded = list(iter_traces(paths))
    return TraceSet(
        tuple(t for t in loaded if isinstance(t, Trace)), tuple(e for e in loaded if isinstance(e, InputError))
    )


def load_trace_gold(path: str | Path) -> Mapping[str, TraceGold]:
    """Trace gold from a JSON or YAML file, keyed by ``trace_id`` or ``case_id``: an object mapping ids to gold
    (``{expected_tools, expected_final_state, expected_final_response}``), or a list of such objects each with a
    ``trace_id`` or ``case_id``. Raises ``ConfigError`` naming the file and the entry."""
    data = _read_document(Path(path), "gold file")
    entries: list[tuple[str, object]]
    if isinstance(data, dict):
        entries = list(data.items())
    elif isinstance(data, list):
        entries = []
        for i, item in enumerate(data):
            key = item.get("trace_id", item.get("case_id")) if isinstance(item, dict) else None
            if not isinstance(key, str) or not key:
                raise ConfigError(f"gold file {path}: entry [{i}] needs a string trace_id or case_id")
            entries.append((key, {k: v for k, v in item.items() if k not in ("trace_id", "case_id")}))
    else:
        raise ConfigError(
            f"gold file {path}: expected an object keyed by trace id or a list, got {type(data).__name__}"
        )
    out: dict[str, TraceGold] = {}
    for key, raw in entries:
        try:
            gold = _gold(_GoldModel.model_validate(raw))
        except ValidationError as error:
            problem = _first_error(error, "", Location())
            raise ConfigError(
                f"gold file {path}: {key!r}: field {problem.location.field!r}: {problem.message}"
            ) from None
        if key in out:
            raise ConfigError(f"gold file {path}: {key!r} is given more than once")
        out[key] = gold or TraceGold()
    return out


def step_json(step: Step) -> dict[str, JsonValue]:
    """A step as it appears in a trace file (fields left at their defaults omitted): the evidence of a finding."""
    out: dict[str, JsonValue] = {"step_id": step.step_id, "action_type": step.action_type.value}
    for name in ("tool_name", "content", "error", "latency_ms"):
        value = getattr(step, name)
        if value is not None:
            out[name] = value
    if step.arguments:
        out["arguments"] = dict(step.arguments)
    if step.observation is not None:
        out["observation"] = step.observation
    for name in ("state_before", "state_after"):
        state = getattr(step, name)
        if state is not None:
            out[name] = dict(state)
    return out
