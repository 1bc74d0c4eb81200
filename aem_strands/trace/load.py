"""Loading and validating traces, policies and trace gold (SPEC §9).

A trace file is JSON (one trace object, or an array of them), JSONL (one trace a line) or YAML (one trace per
document, or a list of them); the format is chosen by suffix (``.yaml`` / ``.yml``: YAML; the rest as
``aem_strands.decode`` chooses, with its limits on depth, numbers and strings). Each trace is validated with the
pydantic schema below; a bad trace is an ``InputError`` naming the file, line, trace id, step and field, and is
skipped: the other traces still load. A file that cannot be read at all is one error record too, and the next
file is read. Two traces with the same ``trace_id`` (in one call, across its files) make the later one an error;
so do two steps with the same ``step_id`` in one trace.

Fields beyond what the checks read load as written (the method write-up's own trace, SPEC §9): on a step
``state_change``, ``thought_summary``, ``timestamp``, ``evaluator_notes``, ``metadata``, ``error`` as a string or
an object (``Step.error`` is then its message text, ``Step.error_detail`` the object), ``action_type:
final_response`` (a ``response``; its text from ``content``, else the trace's ``final_response``); on a trace
``metadata``, ``timestamp`` and ``evaluator_notes``. A field the schema does not know is kept (``Trace.extra``,
``Step.extra``, ``unknown_fields``) and named once per load in a warning: the ``warn`` callback of
``iter_traces`` when given (the CLI writes it to stderr), else an ``UnknownFieldWarning`` through Python's
``warnings``; ``load_traces`` collects them in ``TraceSet.warnings``. With ``strict=True`` such a field is an
error of its trace, as every other schema error.
An observation written as JSON text is read as that JSON value by ``Step`` (``aem_strands.trace.observations``).
The policy format and its reading are ``aem_strands.trace.policy``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aem_strands.decode import find_flaw, format_of, read_records
from aem_strands.errors import AemError, ConfigError, InputError, Location, printable
from aem_strands.load import read_lines
from aem_strands.metadata import check_metadata
from aem_strands.trace.documents import (
    STRICT,
    YAML_SUFFIXES,
    Amount,
    Count,
    Name,
    first_error,
    plain_yaml,
    read_document,
)
from aem_strands.trace.policy import environment_from_json
from aem_strands.trace.types import (
    ActionType,
    ExpectedCall,
    Step,
    StepCost,
    Trace,
    TraceGold,
    TraceSource,
)
from aem_strands.trace.yaml_limits import BoundedLoader
from aem_strands.types import JsonValue

# --- the file schema -------------------------------------------------------------------------------------------------


_LENIENT = ConfigDict(extra="allow", strict=True)
"""Unknown fields are kept (``model_extra``) and warned about; ``STRICT`` models refuse them."""


class _CostModel(BaseModel):
    model_config = _LENIENT
    input_tokens: Count | None = None
    output_tokens: Count | None = None
    usd: Amount | None = None


class _StrictCostModel(_CostModel):
    model_config = STRICT


class _StepModel(BaseModel):
    model_config = _LENIENT
    step_id: Name | int | None = None
    action_type: Literal["response", "tool_call", "state_update", "handoff", "user", "final_response"]
    tool_name: Name | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)
    observation: Any = None
    content: str | None = None
    state_before: dict[str, Any] | None = None
    state_after: dict[str, Any] | None = None
    error: str | dict[str, Any] | None = None
    latency_ms: Amount | None = None
    cost: _CostModel | Amount | None = None
    """Tokens and money, or a bare number: money (USD)."""
    state_change: Any = None
    thought_summary: str | None = None
    timestamp: str | int | float | None = None
    evaluator_notes: Any = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class _StrictStepModel(_StepModel):
    model_config = STRICT
    cost: _StrictCostModel | Amount | None = None


class _ExpectedToolModel(BaseModel):
    model_config = STRICT
    tool: Name
    arguments: dict[str, Any] | None = None
    compare_args: list[str] | None = None
    observation: Any = None


class _GoldModel(BaseModel):
    model_config = STRICT
    expected_tools: list[Name | _ExpectedToolModel] | None = None
    expected_final_state: dict[str, Any] | None = None
    expected_final_response: str | None = None


class _EvaluationModel(_GoldModel):
    # Besides the gold fields, a trace's evaluation block may carry the user's own labels (kept in Trace.evaluation).
    model_config = ConfigDict(extra="allow", strict=True)


class _TraceModel(BaseModel):
    model_config = _LENIENT
    trace_id: Name
    case_id: Name | None = None
    goal: str | None = None
    instructions: str | None = None
    initial_state: dict[str, Any] = Field(default_factory=dict)
    environment: dict[str, Any] | None = None
    steps: Annotated[list[Any], Field(min_length=1)]
    final_response: str | None = None
    final_state: dict[str, Any] | None = None
    metrics: dict[str, Any] = Field(default_factory=dict)
    evaluation: _EvaluationModel | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    evaluator_notes: Any = None
    timestamp: str | int | float | None = None


class _StrictTraceModel(_TraceModel):
    model_config = STRICT


def _gold(model: _GoldModel) -> TraceGold | None:
    if model.expected_tools is None and model.expected_final_state is None and model.expected_final_response is None:
        return None
    tools = arguments = calls = None
    if model.expected_tools is not None:
        entries = [_ExpectedToolModel(tool=t) if isinstance(t, str) else t for t in model.expected_tools]
        tools = tuple(t.tool for t in entries)
        if any(t.arguments is not None for t in entries):
            arguments = tuple(t.arguments for t in entries)
        if any(t.compare_args is not None or t.observation is not None for t in entries):
            calls = tuple(
                ExpectedCall(
                    t.tool, t.arguments, None if t.compare_args is None else tuple(t.compare_args), t.observation
                )
                for t in entries
            )  # else ``TraceGold.calls()`` gives them from the tools and arguments
    return TraceGold(tools, arguments, model.expected_final_state, model.expected_final_response, calls)


_MESSAGE_KEYS = ("message", "msg", "error", "detail", "details", "description", "reason", "title")


def error_text(error: Mapping[str, Any]) -> str | None:
    """The message text of an error given as an object: its first non-empty message member (``message``,
    ``msg``, ``error``, ``detail``..., nested objects searched the same way), else the object as JSON;
    ``None`` for an empty object (nothing says the step failed)."""
    if not error:
        return None
    for key in _MESSAGE_KEYS:
        value = error.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, Mapping):
            nested = error_text(value)
            if nested is not None and not nested.startswith("{"):
                return nested
    return json.dumps(error, ensure_ascii=False, sort_keys=True, default=str)


def _extra(model: BaseModel, prefix: str = "") -> dict[str, Any]:
    return {f"{prefix}{k}": v for k, v in (model.model_extra or {}).items()}


def _step(raw: object, index: int, where: Location, strict: bool, final_response: str | None) -> Step:
    field_name = f"steps[{index}]"
    if not isinstance(raw, dict):
        raise InputError(f"a step must be an object, got {type(raw).__name__}", replace(where, field=field_name))
    step_id = raw.get("step_id")

    def here(field: str | None = None) -> Location:  # built only for an error: ``replace`` costs more than a check
        return replace(where, step_id=str(step_id) if isinstance(step_id, (str, int)) else None, field=field)

    try:
        model = (_StrictStepModel if strict else _StepModel).model_validate(raw)
    except ValidationError as error:
        raise first_error(error, field_name, here(where.field)) from None
    final = model.action_type == "final_response"
    kind = ActionType.RESPONSE if final else ActionType(model.action_type)
    content = model.content if model.content is not None or not final else final_response
    if kind is ActionType.TOOL_CALL and model.tool_name is None:
        raise InputError("a tool_call step needs a tool_name", here(f"{field_name}.tool_name"))
    if kind in (ActionType.RESPONSE, ActionType.USER) and content is None:
        raise InputError(f"a {model.action_type} step needs its text in content", here(f"{field_name}.content"))
    cost = model.cost
    extra = _extra(model)
    if isinstance(cost, _CostModel):
        extra.update(_extra(cost, "cost."))
    given = model.error
    detail = given if isinstance(given, dict) else None
    text = error_text(given) if isinstance(given, dict) else given
    return Step(
        step_id=str(index + 1) if model.step_id is None else str(model.step_id),
        index=index,
        action_type=kind,
        tool_name=model.tool_name,
        arguments=model.arguments,
        observation=model.observation,
        content=content,
        state_before=model.state_before,
        state_after=model.state_after,
        error=text,
        latency_ms=model.latency_ms,
        cost=None
        if cost is None
        else StepCost(usd=cost)
        if isinstance(cost, float)
        else StepCost(cost.input_tokens, cost.output_tokens, cost.usd),
        error_detail=detail,
        state_change=model.state_change,
        thought_summary=model.thought_summary,
        timestamp=model.timestamp,
        evaluator_notes=model.evaluator_notes,
        metadata=model.metadata,
        extra=extra,
        final=final,
    )


def unknown_fields(trace: Trace) -> tuple[str, ...]:
    """The fields of ``trace`` the schema does not know, each once, as paths: ``name`` on the trace,
    ``steps[].name`` on a step (``steps[].cost.name`` inside its cost)."""
    names = [*trace.extra, *(f"steps[].{name}" for step in trace.steps for name in step.extra)]
    return tuple(dict.fromkeys(names))


def parse_trace(raw: object, where: Location | None = None, *, strict: bool = False) -> Trace:
    """Validate one trace object; ``where`` names the file and line for error messages and ``Trace.source``.

    Raises ``InputError`` naming the trace, step and field (see the module docstring); with ``strict``, a field
    the schema does not know is such an error too (else it is kept in ``extra``).
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
        model = (_StrictTraceModel if strict else _TraceModel).model_validate(raw)
    except ValidationError as error:
        raise first_error(error, "", where) from None
    try:  # the keys score reads from a dialog's metadata (reference_date, locale, unordered_args), checked alike
        check_metadata(model.metadata, Location(where.file))
    except InputError as error:
        raise InputError(error.message, replace(where, field=error.location.field)) from None
    steps = tuple(_step(s, i, where, strict, model.final_response) for i, s in enumerate(model.steps))
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
    known = where.file is not None or where.line is not None or where.index is not None
    return Trace(
        trace_id=model.trace_id,
        steps=steps,
        case_id=model.case_id,
        goal=model.goal,
        initial_state=model.initial_state,
        environment=environment,
        instructions=model.instructions,
        final_response=model.final_response,
        final_state=model.final_state,
        metrics=model.metrics,
        evaluation=evaluation.model_dump(exclude_unset=True),
        gold=_gold(evaluation),
        metadata=model.metadata,
        evaluator_notes=model.evaluator_notes,
        timestamp=model.timestamp,
        extra=_extra(model),
        source=TraceSource(where.file, where.line, where.index) if known else None,
    )


Warn = Callable[[str], None]
"""Where a loading warning goes (one line of text)."""


class UnknownFieldWarning(UserWarning):
    """A trace field the schema does not know: kept, not read by any check (``--strict`` refuses it)."""


def _python_warning(message: str) -> None:
    warnings.warn(message, UnknownFieldWarning, stacklevel=4)


@dataclass(frozen=True)
class TraceUnit:
    """One trace as a file holds it, before validation: where it stands, its value, or why it could not be read."""

    where: Location
    value: Any = None
    error: str | None = None


def _yaml_units(path: str) -> Iterator[TraceUnit]:
    try:
        text = b"".join(read_lines(path)).decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (at offset {error.start}): is this a binary file?", Location(path)) from None
    loader = BoundedLoader(text)  # within JSON's limits, aliases bounded (aem_strands.trace.yaml_limits)
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
                yield TraceUnit(where, plain_yaml(loader.construct_document(item)))
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


def trace_units(path: str) -> Iterator[TraceUnit]:
    """The traces of one file as ``trace`` reads them: one per document or array element (or JSONL line)."""
    if Path(path).suffix.lower() in YAML_SUFFIXES:
        yield from _yaml_units(path)
        return
    for record in read_records(read_lines(path), path, format_of(path)):
        where = Location(path, line=record.line, index=record.index)
        yield TraceUnit(where, record.value, record.error)


def iter_traces(
    paths: str | Path | Iterable[str | Path], *, strict: bool = False, warn: Warn | None = None
) -> Iterator[Trace | InputError]:
    """Every trace of ``paths`` in order, or the ``InputError`` that kept it from loading (see the module docstring).

    Never raises for bad input: an unreadable file is one error (after the traces read before the problem) and
    the next file is read. Each unknown field is named once per call, to ``warn`` (default: an
    ``UnknownFieldWarning``); with ``strict`` it is its trace's error instead.
    """
    seen: set[str] = set()
    named: set[str] = set()
    tell = warn or _python_warning
    for path in [paths] if isinstance(paths, (str, Path)) else paths:
        file = str(path)
        try:
            for unit in trace_units(file):
                if unit.error is not None:
                    yield InputError(unit.error, unit.where)
                    continue
                try:
                    trace = parse_trace(unit.value, unit.where, strict=strict)
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
                for name in unknown_fields(trace):
                    if name not in named:
                        named.add(name)
                        where = replace(unit.where, trace_id=trace.trace_id).describe()
                        tell(printable(f"unknown trace field {name!r} kept, not read by any check (first at {where}; "
                                       "--strict refuses it)"))  # fmt: skip
                yield trace
        except InputError as error:
            yield error


@dataclass(frozen=True)
class TraceSet(Sequence[Trace]):
    """The valid traces of one or more files, the errors of the invalid ones, and the loading warnings (each
    unknown field named once)."""

    traces: tuple[Trace, ...]
    errors: tuple[InputError, ...] = ()
    warnings: tuple[str, ...] = field(default=())

    def __len__(self) -> int:
        return len(self.traces)

    def __getitem__(self, index: int) -> Trace:  # type: ignore[override]  # slices are not needed
        return self.traces[index]

    def __iter__(self) -> Iterator[Trace]:
        return iter(self.traces)


def load_traces(paths: str | Path | Iterable[str | Path], *, strict: bool = False) -> TraceSet:
    """All traces of ``paths`` at once: the valid ones, the errors of the rest, and the warnings (see
    ``iter_traces``; here the warnings are collected, not emitted)."""
    told: list[str] = []
    loaded = list(iter_traces(paths, strict=strict, warn=told.append))
    return TraceSet(
        tuple(t for t in loaded if isinstance(t, Trace)),
        tuple(e for e in loaded if isinstance(e, InputError)),
        tuple(told),
    )


def load_trace_gold(path: str | Path) -> Mapping[str, TraceGold]:
    """Trace gold from a JSON or YAML file, keyed by ``trace_id`` or ``case_id``: an object mapping ids to gold
    (``{expected_tools, expected_final_state, expected_final_response}``), or a list of such objects each with a
    ``trace_id`` or ``case_id``. Raises ``ConfigError`` naming the file and the entry."""
    data = read_document(Path(path), "gold file")
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
            problem = first_error(error, "", Location())
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
    if step.error_detail is not None:
        out["error"] = dict(step.error_detail)  # as the trace wrote it
    if step.state_change is not None:
        out["state_change"] = step.state_change
    return out
