"""Plain value types of trajectory evaluation (SPEC §9): traces and policies in, dimension verdicts and the
replay report out.

A trace is what an agent did, step by step, with or without gold. The checks (``aem_strands.trace.checks``)
read a ``Trace`` and its effective ``Environment`` (the trace's own environment over the run's policy) and
give one ``DimensionVerdict`` per ``Dimension``; the diagnosis (``aem_strands.trace.diagnose``) turns the
findings into the replay report of a ``TraceResult``. Loaders and adapters (files, Strands sessions, span
exports, our dialog format) convert their inputs to these types; the core never sees host types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from aem_strands.tools import ToolCatalog
from aem_strands.trace.observations import structured
from aem_strands.types import JsonValue


class ActionType(str, Enum):
    """What a step is: the agent's reply, a tool call, a state change, a hand-off, or the user's message."""

    RESPONSE = "response"
    TOOL_CALL = "tool_call"
    STATE_UPDATE = "state_update"
    HANDOFF = "handoff"
    USER = "user"


class Dimension(str, Enum):
    """The nine process dimensions of a trace, in report order."""

    PLANNING = "planning"
    NECESSITY = "necessity"
    TOOL_SELECTION = "tool_selection"
    ARGUMENTS = "arguments"
    RESULT_USE = "result_use"
    STATE = "state"
    RECOVERY = "recovery"
    SAFETY = "safety"
    COST = "cost"


class Gate(str, Enum):
    """What a failed dimension does to the trace: ``veto`` fails it whatever else holds (safety), ``hard`` fails
    it, ``soft`` is reported and fails the dimension only (cost)."""

    VETO = "veto"
    HARD = "hard"
    SOFT = "soft"


GATES: Mapping[Dimension, Gate] = {
    **dict.fromkeys(Dimension, Gate.HARD),
    Dimension.SAFETY: Gate.VETO,
    Dimension.COST: Gate.SOFT,
}
"""The gate of each dimension (SPEC §9: safety is a veto, cost a soft gate)."""


class Layer(str, Enum):
    """Where a fix most plausibly belongs."""

    MODEL = "model"
    PROMPT = "prompt"
    RETRIEVAL = "retrieval"
    TOOL = "tool"
    ORCHESTRATION = "orchestration"
    BUSINESS_RULE = "business_rule"


class FindingMethod(str, Enum):
    """How a finding was decided: by a deterministic rule, or by the LLM judge where no rule could decide."""

    RULE = "rule"
    JUDGE = "judge"


@dataclass(frozen=True)
class StepCost:
    """What a step cost: tokens and money, each ``None`` when not recorded."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    usd: float | None = None

    @property
    def tokens(self) -> int | None:
        if self.input_tokens is None and self.output_tokens is None:
            return None
        return (self.input_tokens or 0) + (self.output_tokens or 0)


@dataclass(frozen=True)
class Step:
    """One step of a trace.

    ``index`` is the step's 0-based position (``step_id`` is the trace's own name for it, unique in the
    trace). ``content`` is the text of a ``response`` or ``user`` step (``None`` for others); ``arguments``
    and ``observation`` belong to ``tool_call`` steps (a hand-off names its target in ``tool_name``);
    ``error`` is the tool's or runtime's error text (a timeout included), ``None`` when the step succeeded.

    What the checks do not read is kept as the trace gave it, for the record and for readers: ``error_detail``
    (an error given as an object: ``error`` is then its message text), ``state_change``, ``thought_summary``,
    ``timestamp``, ``evaluator_notes``, ``metadata`` (the agent's name in a multi-agent run, a team's labels)
    and ``extra`` (fields the schema does not know, by name). ``final`` marks a step written as
    ``action_type: final_response`` (read as a ``response``). A tool's text result that holds one JSON object or
    array is read as that value (``aem_strands.trace.observations``), whichever way the step was built.
    """

    step_id: str
    index: int
    action_type: ActionType
    tool_name: str | None = None
    arguments: Mapping[str, JsonValue] = field(default_factory=dict)
    observation: JsonValue = None
    content: str | None = None
    state_before: Mapping[str, JsonValue] | None = None
    state_after: Mapping[str, JsonValue] | None = None
    error: str | None = None
    latency_ms: float | None = None
    cost: StepCost | None = None
    error_detail: Mapping[str, JsonValue] | None = None
    state_change: JsonValue = None
    thought_summary: str | None = None
    timestamp: str | float | None = None
    evaluator_notes: JsonValue = None
    metadata: Mapping[str, JsonValue] = field(default_factory=dict)
    extra: Mapping[str, JsonValue] = field(default_factory=dict)
    final: bool = False

    def __post_init__(self) -> None:
        # a tool's text result holding JSON is read as that JSON, whoever built the step (trace.observations)
        if isinstance(self.observation, (str, list)):
            object.__setattr__(self, "observation", structured(self.observation))


Scalar = str | int | float | bool
"""A value a rule compares an observation with."""


@dataclass(frozen=True)
class OrderingRule:
    """What must hold before a call to ``tool`` (the planning check reads it; ``docs/TRAJECTORY.md`` has an
    example of each):

    - ``after``: each of these succeeded and said yes earlier (not ``verified: false``), for the same object;
    - ``after_any``: at least one of these did;
    - ``require``: the last observation of the object shows each key with one of the values given
      (``{"status": ("pending",)}``);
    - ``at_most``: at most this many successful calls to ``tool`` per object;
    - ``not_after``: no successful call to one of these for the same object earlier.

    The object is the value of argument ``per`` (``order_id``); without ``per``, a precondition is for the same
    object when the identifying arguments both calls have agree, and ``at_most`` / ``not_after`` count over the
    whole trace."""

    tool: str
    after: tuple[str, ...] = ()
    after_any: tuple[str, ...] = ()
    require: tuple[tuple[str, tuple[Scalar, ...]], ...] = ()
    at_most: int | None = None
    not_after: tuple[str, ...] = ()
    per: str | None = None


@dataclass(frozen=True)
class HandoffRule:
    """When a hand-off is due: once a call to ``after`` has failed (``failed``) or observed one of the
    ``observed`` values (``{"verified": (False,)}``) ``times`` times, the agent's next tool action is a hand-off:
    a ``handoff`` step or a call to one of ``to``."""

    after: str
    to: tuple[str, ...] = ()
    observed: tuple[tuple[str, tuple[Scalar, ...]], ...] = ()
    failed: bool = False
    times: int = 1


@dataclass(frozen=True)
class SelectionRule:
    """Without gold: when the goal matches ``goal_pattern`` (a case-insensitive regular expression), only the
    tools of ``allowed`` may be called (``None``: any) and none of ``forbidden``."""

    goal_pattern: str
    allowed: tuple[str, ...] | None = None
    forbidden: tuple[str, ...] = ()


@dataclass(frozen=True)
class SensitiveDataRule:
    """Which sensitive values may go where: kinds (``card``, ``government_id``, ``secret``, ``email``,
    ``phone``, ``address``) that must not appear in a reply, and tools they must not be sent to."""

    forbid_in_reply: tuple[str, ...] = ("card", "government_id", "secret")
    forbid_to_tools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Kind → tools that must not receive a value of that kind."""


@dataclass(frozen=True)
class Budgets:
    """Cost budgets; ``None`` is no budget. ``max_identical_calls`` bounds how often the same call (tool and
    arguments) may be made without an error in between (1: no repeat); ``max_retries`` bounds retries of a
    call that keeps failing."""

    max_steps: int | None = None
    max_tool_calls: int | None = None
    max_identical_calls: int | None = 1
    max_retries: int | None = 3
    max_latency_ms: float | None = None
    max_tokens: int | None = None
    max_cost_usd: float | None = None


@dataclass(frozen=True)
class Environment:
    """What a trace is judged against: tool definitions (with their hints), the tools this role may not call,
    the rules, and the budgets. A ``--policy`` file has this shape; a trace's own environment is merged with
    it so that restrictions only add up (``merge_environment``). Tool names in it are compared as the policy
    engine sees them (``aem_strands.trace.names``)."""

    tools: ToolCatalog = field(default_factory=ToolCatalog)
    denied_tools: frozenset[str] = frozenset()
    destructive_tools: frozenset[str] = frozenset()
    """Tools treated as destructive besides those whose definition says ``destructiveHint``."""
    ordering: tuple[OrderingRule, ...] = ()
    selection: tuple[SelectionRule, ...] = ()
    sensitive: SensitiveDataRule = field(default_factory=SensitiveDataRule)
    budgets: Budgets = field(default_factory=Budgets)
    expected_final_state: Mapping[str, JsonValue] | None = None
    untrusted_tools: frozenset[str] = frozenset()
    """Tools that read the outside world (e-mail, web, files) besides those whose definition says
    ``openWorldHint``: what they return may carry instructions nobody trusted gave."""
    handoff: tuple[HandoffRule, ...] = ()
    consent: Mapping[str, str] = field(default_factory=dict)
    """Tool name → ``required`` (a call needs the user's consent, as a destructive one does) or ``not_required``
    (a write a business rule lets the agent make unasked; a trace's own is dropped when a run's policy is given,
    see ``merge_environment``)."""


@dataclass(frozen=True)
class ExpectedCall:
    """One call the gold expects: the tool, and optionally what ``score``'s gold call carries: the arguments
    (``None``: the tool alone is expected, no argument is compared), ``compare_args`` (only these arguments
    are compared; ``()``: none) and the gold call's own ``observation`` (a gold call that failed is fulfilled
    by a call that failed too)."""

    tool: str
    arguments: Mapping[str, JsonValue] | None = None
    compare_args: tuple[str, ...] | None = None
    observation: JsonValue = None


@dataclass(frozen=True)
class TraceGold:
    """What a trace was expected to do, when known: the tools in order (each optionally with arguments),
    the final state, the final reply. From ``--gold`` or the trace's ``evaluation`` block.

    ``expected_calls`` carries each expected call whole (``ExpectedCall``); when it is ``None`` the calls are
    ``expected_tools`` with ``expected_arguments`` (``calls()`` gives them either way)."""

    expected_tools: tuple[str, ...] | None = None
    expected_arguments: tuple[Mapping[str, JsonValue] | None, ...] | None = None
    expected_final_state: Mapping[str, JsonValue] | None = None
    expected_final_response: str | None = None
    expected_calls: tuple[ExpectedCall, ...] | None = None

    def calls(self) -> tuple[ExpectedCall, ...] | None:
        """The expected calls in order (``None`` when the gold names no tools)."""
        if self.expected_calls is not None:
            return self.expected_calls
        if self.expected_tools is None:
            return None
        arguments = tuple(self.expected_arguments or ())
        arguments += (None,) * (len(self.expected_tools) - len(arguments))  # a tool without arguments: the tool only
        return tuple(ExpectedCall(tool, arguments[i]) for i, tool in enumerate(self.expected_tools))


@dataclass(frozen=True)
class TraceSource:
    """Where a trace was read: its file and the line (JSONL, YAML) or element index (a JSON array) it starts at,
    so a record joins its input whatever redaction does to an id."""

    file: str | None = None
    line: int | None = None
    index: int | None = None

    def to_dict(self) -> dict[str, JsonValue]:
        return {"file": self.file, "line": self.line, "index": self.index}


@dataclass(frozen=True)
class Trace:
    """One run of an agent on one case. ``environment`` is the trace's own (``None`` fields of a file become
    defaults); ``gold`` is what it was expected to do, or ``None``; ``instructions`` is what the agent was told
    before the run (its system prompt: a policy's fees and limits), or ``None``. ``metadata``, ``evaluator_notes``,
    ``timestamp`` and ``extra`` (fields the schema does not know) are kept as given; ``source`` is where it was read."""

    trace_id: str
    steps: tuple[Step, ...]
    case_id: str | None = None
    goal: str | None = None
    initial_state: Mapping[str, JsonValue] = field(default_factory=dict)
    environment: Environment | None = None
    instructions: str | None = None
    final_response: str | None = None
    final_state: Mapping[str, JsonValue] | None = None
    metrics: Mapping[str, JsonValue] = field(default_factory=dict)
    evaluation: Mapping[str, JsonValue] = field(default_factory=dict)
    gold: TraceGold | None = None
    metadata: Mapping[str, JsonValue] = field(default_factory=dict)
    evaluator_notes: JsonValue = None
    timestamp: str | float | None = None
    extra: Mapping[str, JsonValue] = field(default_factory=dict)
    source: TraceSource | None = None

    def tool_calls(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.action_type is ActionType.TOOL_CALL)


@dataclass(frozen=True)
class Finding:
    """One problem a check found: where (``step_id``, or ``None`` for the whole trace), by which rule (a
    dotted name such as ``planning.order`` or ``safety.denied_tool``), what, and the trace fragment that
    shows it."""

    dimension: Dimension
    rule: str
    message: str
    step_id: str | None = None
    step_index: int | None = None
    evidence: JsonValue = None
    method: FindingMethod = FindingMethod.RULE

    def to_dict(self) -> dict[str, JsonValue]:
        return {
            "dimension": self.dimension.value,
            "rule": self.rule,
            "message": self.message,
            "step_id": self.step_id,
            "step_index": self.step_index,
            "evidence": self.evidence,
            "method": self.method.value,
        }


@dataclass(frozen=True)
class DimensionVerdict:
    """One dimension of one trace: ``passed`` is ``None`` when the dimension does not apply (``reason`` says
    why); otherwise it fails exactly when ``findings`` is not empty. ``checked`` names what was looked at,
    so a pass can be read too. ``undecided`` lists the questions a needed judge could not answer: with no
    finding, such a dimension makes the trace inconclusive, never a pass."""

    dimension: Dimension
    passed: bool | None
    findings: tuple[Finding, ...] = ()
    checked: str = ""
    reason: str = ""
    undecided: tuple[str, ...] = ()

    @property
    def applicable(self) -> bool:
        return self.passed is not None

    @property
    def gate(self) -> Gate:
        return GATES[self.dimension]

    def to_dict(self) -> dict[str, JsonValue]:
        return {
            "pass": self.passed,
            "applicable": self.applicable,
            "gate": self.gate.value,
            "checked": self.checked,
            "reason": self.reason,
            "findings": [f.to_dict() for f in self.findings],
            "undecided": list(self.undecided),
        }


def passed_verdict(dimension: Dimension, checked: str) -> DimensionVerdict:
    return DimensionVerdict(dimension, True, (), checked)


def not_applicable(dimension: Dimension, reason: str) -> DimensionVerdict:
    return DimensionVerdict(dimension, None, (), "", reason)


def verdict_from(dimension: Dimension, findings: list[Finding] | tuple[Finding, ...], checked: str) -> DimensionVerdict:
    """Pass when there are no findings, fail otherwise."""
    return DimensionVerdict(dimension, not findings, tuple(findings), checked)


@dataclass(frozen=True)
class DownstreamFailure:
    """A later finding the first critical failure step explains, and how (``link``: ``same_value`` when a
    value from the critical step reappears, ``after_error`` after an unrecovered error, ``follows`` when it
    is later in the same chain of dependent steps, ``after_detour`` for an expected call missing after the run
    left the expected path)."""

    step_id: str | None
    dimension: Dimension
    rule: str
    link: str

    def to_dict(self) -> dict[str, JsonValue]:
        return {"step_id": self.step_id, "dimension": self.dimension.value, "rule": self.rule, "link": self.link}


@dataclass(frozen=True)
class Diagnosis:
    """The replay report of a failed trace (SPEC §9). ``first_critical_failure_step`` is ``None`` when the
    trace has no failing step; ``critical_rule`` states how it was chosen."""

    first_critical_failure_step: str | None = None
    critical_rule: str = ""
    downstream_failures: tuple[DownstreamFailure, ...] = ()
    root_cause_hypothesis: str = ""
    affected_layers: tuple[Layer, ...] = ()
    evidence: tuple[JsonValue, ...] = ()
    suggested_fix: str = ""
    regression_asset: Mapping[str, JsonValue] | None = None


class TraceStatus(str, Enum):
    """A trace's outcome: ``pass``, ``fail``, or ``inconclusive`` when a needed check could not decide (the
    judge failed, say): never a pass."""

    PASS = "pass"
    FAIL = "fail"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class TraceResult:
    """The evaluation of one trace: its dimensions, the veto, the outcome and the diagnosis."""

    trace_id: str
    case_id: str | None
    status: TraceStatus
    veto: bool
    dimensions: Mapping[Dimension, DimensionVerdict]
    diagnosis: Diagnosis
    steps: int = 0
    source: TraceSource | None = None
    """Where the trace was read (``Trace.source``)."""
    metadata: Mapping[str, JsonValue] = field(default_factory=dict)
    """The trace's own ``metadata``, kept in the record."""
    step_metadata: Mapping[str, Mapping[str, JsonValue]] = field(default_factory=dict)
    """Each step's own ``metadata`` by ``step_id`` (steps without any left out), kept in the record."""

    @property
    def test_pass(self) -> bool:
        return self.status is TraceStatus.PASS
