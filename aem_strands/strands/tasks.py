"""Provided tasks for ``Experiment.run_evaluations`` and ``strands-evals run --task``.

- ``offline_task`` (offline replay): returns the predicted side of the case's annotated dialog as a
  real ``Session`` trajectory (``aem_strands.strands.session.offline_session``) and the last
  predicted reply as output; for a live case that carries the predicted turns of a recorded run
  (``metadata.aem.predicted``, unpaired format, as ``aem-strands export-regression`` writes), those turns.
- ``make_live_task(factory)`` (live): build a fresh Strands ``Agent`` with the factory
  (``factory()`` or ``factory(case)``), send it the case's user messages one by one (the same agent,
  so it keeps the conversation), and return ``{"output": last reply, "trajectory": Session}``.
- ``make_live_task(allow=[...])``: the same, with the factory each case names in
  ``case.metadata["aem"]["agent"]`` (``MODULE:ATTR`` or ``path/to/file.py:ATTR``), imported **only**
  if the caller allowed it: an ``allow`` entry is a whole spec, or a module / file whose every
  attribute may be used.

Security: importing a module runs its code, and an experiment file may come from anywhere. So a case
file never chooses code on its own: ``live_task`` (kept for the ``strands-evals run --task
aem_strands:live_task`` form) refuses with a message naming both ways above; write
``task = make_live_task(build_agent)`` or ``task = make_live_task(allow=["my_agents"])`` in your own
module and pass ``--task my_module:task``.

Every span of a run is stamped with a run id (the case's ``session_id`` plus a fresh suffix) through
OTel baggage, and the session is mapped with that id, so concurrent cases (``max_workers > 1``) and
reruns of the same case never mix. Telemetry: the
in-memory exporter of ``strands_evals`` is set up once per process, on first use.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from opentelemetry import baggage, context
from strands_evals import Case
from strands_evals.mappers import StrandsInMemorySessionMapper
from strands_evals.telemetry import StrandsEvalsTelemetry
from strands_evals.types.trace import Session

from aem_strands.errors import ConfigError, InputError, Location
from aem_strands.strands.cases import aem_entry, dialog_context
from aem_strands.strands.session import offline_session, with_tool_registry

AgentFactory = Callable[..., Any]


def offline_task(case: Case[Any, Any]) -> dict[str, Any]:
    """The predicted side of the case's paired dialog (``metadata["aem"]["dialog"]``) as a real ``Session``,
    a live case's recorded predicted turns (``metadata["aem"]["predicted"]``) as they are, a recorded
    ``Session`` (``metadata["aem"]["session"]``, as ``export-regression`` writes for trace rows) with its output,
    or a recorded trace's steps (``metadata["aem"]["trace"]``, trace output's regression cases) with its final reply.

    The trajectory is ``offline_session(turns)`` (one trace per user turn, the exact predicted turns in
    span metadata), so host trace-level evaluators and detectors run on offline cases as on live ones;
    the output is the last predicted reply.
    """
    entry = aem_entry(case.metadata, case.name)
    trace = entry.get("trace")
    if "dialog" not in entry and isinstance(trace, dict):  # a recorded trace (trace regression): its steps, its reply
        steps, final = trace.get("steps"), trace.get("final_response")
        return {"output": final if isinstance(final, str) else None, "trajectory": list(steps or [])}
    if "dialog" not in entry and isinstance(entry.get("session"), dict):  # a recorded Session (trace regression)
        try:
            session = Session.model_validate(entry["session"])
        except ValueError as error:
            raise InputError(f"unreadable recorded session: {error}", Location(dialog_id=case.name,
                             field="metadata.aem.session")) from None  # fmt: skip
        return {"output": entry.get("output"), "trajectory": session}
    recorded = entry.get("predicted")
    if "dialog" not in entry and isinstance(recorded, list):  # a recorded live run: aligned to gold as it was
        last = recorded[-1] if recorded else None
        said = last.get("response") if isinstance(last, dict) and last.get("turn") == "Agent" else None
        return {"output": said, "trajectory": recorded}
    raw = entry.get("dialog")
    turns = raw.get("turns") if isinstance(raw, dict) else raw
    if not isinstance(turns, list):
        raise InputError(
            "offline replay needs metadata.aem.dialog with a list of paired turns", Location(dialog_id=case.name)
        )
    paired = [t for t in turns if isinstance(t, dict)]
    replies = [
        t["predict_turn"].get("response")
        for t in paired
        if t.get("turn") == "Agent" and isinstance(t.get("predict_turn"), dict)
    ]
    messages = entry.get("user_messages", dialog_context(raw).get("user_messages"))
    users = [m for m in messages if isinstance(m, str)] if isinstance(messages, list) else []
    session = offline_session(paired, case.session_id, users)
    return {"output": replies[-1] if replies else None, "trajectory": session}


@functools.lru_cache(maxsize=1)
def telemetry() -> StrandsEvalsTelemetry:
    """The process-wide in-memory span exporter (set up once, on first use)."""
    return StrandsEvalsTelemetry().setup_in_memory_exporter()


def _split(spec: str) -> tuple[str, str]:
    where, sep, attr = spec.rpartition(":")
    if not sep or not where or not attr.isidentifier():
        raise ConfigError(f"agent factory must be 'MODULE:ATTR' or 'path/to/file.py:ATTR', got {spec!r}")
    return where, attr


def _same_place(a: str, b: str) -> bool:
    if a.endswith(".py") or b.endswith(".py"):
        return Path(a).resolve() == Path(b).resolve()
    return a == b


def is_allowed(spec: str, allow: Sequence[str]) -> bool:
    """Whether ``allow`` lets ``spec`` be imported: the exact spec, or its module / file."""
    where, attr = _split(spec)
    for entry in allow:
        if ":" in entry:
            other, other_attr = _split(entry)
            if other_attr == attr and _same_place(other, where):
                return True
        elif _same_place(entry, where):
            return True
    return False


def resolve_factory(spec: str) -> AgentFactory:
    """Import an agent factory named ``MODULE:ATTR`` or ``path/to/file.py:ATTR`` (only ever an allowed one).

    A module is imported from ``sys.path`` (the ``strands-evals`` CLI puts the current directory there);
    a ``.py`` path is loaded from that file.
    """
    where, attr = _split(spec)
    try:
        if where.endswith(".py"):
            path = Path(where)
            loader = importlib.util.spec_from_file_location(path.stem, path)
            if loader is None or loader.loader is None or not path.is_file():
                raise ImportError(f"no such file {where!r}")
            module = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
        factory = getattr(module, attr)
    except (ImportError, AttributeError) as error:
        raise ConfigError(f"cannot import agent factory {spec!r}: {error}") from None
    if not callable(factory):
        raise ConfigError(f"agent factory {spec!r} is not callable")
    return factory  # type: ignore[no-any-return]


def build_agent(factory: AgentFactory, case: Case[Any, Any]) -> Any:
    """A fresh agent for ``case``: ``factory(case)`` when the factory takes the case, else ``factory()``."""
    takes_case = len(inspect.signature(factory).parameters) >= 1
    return factory(case) if takes_case else factory()


def user_messages(case: Case[Any, Any]) -> list[str]:
    """The user's messages of a live case (``metadata.aem.user_messages``, else ``input``); ``InputError`` when
    they are not a non-empty list of strings."""
    entry = (case.metadata or {}).get("aem") or {}
    messages = entry.get("user_messages") if isinstance(entry, dict) else None
    if messages is None:
        messages = case.input if isinstance(case.input, list) else [case.input]
    if not messages or not all(isinstance(m, str) for m in messages):
        raise InputError(
            "a live case needs a non-empty list of user messages (strings)",
            Location(dialog_id=case.name, field="metadata.aem.user_messages"),
        )
    return list(messages)


def run_live(factory: AgentFactory, case: Case[Any, Any]) -> dict[str, Any]:
    """Run a fresh agent through the case's user messages and return its output and ``Session``.

    Spans are stamped with a fresh run id (``<session_id>:<uuid>``), so neither concurrent cases nor
    an earlier run of the same case (same ``session_id``) can leak into this run's session.
    """
    spans = telemetry()
    run_id = f"{case.session_id}:{uuid.uuid4().hex}"
    token = context.attach(
        baggage.set_baggage("gen_ai.conversation.id", run_id, baggage.set_baggage("session.id", run_id))
    )
    try:
        agent = build_agent(factory, case)
        output = None
        for message in user_messages(case):
            output = str(agent(message)).rstrip("\n")
    finally:
        context.detach(token)
    session = StrandsInMemorySessionMapper().map_to_session(list(spans.in_memory_exporter.get_finished_spans()), run_id)
    registry = getattr(agent, "tool_registry", None)
    if registry is not None:  # the agent's tool definitions travel with its session (argument kinds, see tools.py)
        session = with_tool_registry(session, registry.get_all_tool_specs())
    return {"output": output, "trajectory": session.model_copy(update={"session_id": case.session_id})}


def _case_factory(case: Case[Any, Any], allow: Sequence[str]) -> AgentFactory:
    spec = aem_entry(case.metadata, case.name).get("agent")
    if not isinstance(spec, str):
        raise InputError(
            "a live case needs metadata.aem.agent = 'MODULE:ATTR' of an agent factory",
            Location(dialog_id=case.name, field="metadata.aem.agent"),
        )
    if not is_allowed(spec, allow):
        raise ConfigError(
            f"case {case.name!r} names agent factory {spec!r}, which is not allowed: "
            f"pass it (or its module) in make_live_task(allow=[...]), or give the factory: make_live_task(factory)"
        )
    return resolve_factory(spec)


def make_live_task(
    factory: AgentFactory | None = None, *, allow: Sequence[str] = ()
) -> Callable[[Case[Any, Any]], dict[str, Any]]:
    """A task that runs an agent through each case's user messages (see ``run_live``).

    With ``factory``, that factory serves every case. Without it, each case's
    ``metadata["aem"]["agent"]`` names its factory, imported only if ``allow`` lists the spec or its
    module / file (see the module docstring's security note).
    """
    if factory is None and not allow:
        raise ConfigError("make_live_task needs an agent factory, or allow=[...] naming the factories cases may use")
    if isinstance(allow, str):
        raise ConfigError(f"allow must be a list of specs or modules, got the string {allow!r}")
    allowed = tuple(allow)
    for entry in allowed:
        if ":" in entry:
            _split(entry)
    telemetry()

    def task(case: Case[Any, Any]) -> dict[str, Any]:
        return run_live(factory if factory is not None else _case_factory(case, allowed), case)

    return task


def live_task(case: Case[Any, Any]) -> dict[str, Any]:
    """Refuses: a case file does not choose the code that runs (see the module docstring's security note)."""
    spec = (aem_entry(case.metadata, case.name)).get("agent")
    raise ConfigError(
        f"live_task does not import code named by a case (case {case.name!r} names {spec!r}): use "
        "make_live_task(factory), or make_live_task(allow=['MODULE', ...]) in your own module, and pass "
        "--task MODULE:task"
    )
