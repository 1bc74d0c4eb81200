"""Throughput of trajectory evaluation: traces/s on generated traces, and where the time goes.

Usage (from the repository root)::

    .venv/bin/python benchmarks/trace_benchmark.py [--traces 3000] [--seed 0] [--policy FILE] [--sgd N] [--profile N]

``--traces N`` traces (default 3000) are generated deterministically from ``--seed``: a mix of stories
(``STORIES``: a clean refund-status run, a refund without the identity check, a cancel nobody agreed to, a looped
lookup, a timeout hidden behind "done", a reply contradicting the observation, an ungrounded order id), each
padded to 4-40 steps with unrelated, clean lookups (the user names another order, the agent looks it up and
says what it found). They are judged against the example policy (``examples/data/traces/policy.yaml``).

Printed, after one warm-up pass over a few traces and one MiniLM encode (so Presidio's import, about 2-5 s once per
process, and the model consent reads a request with, loaded on its first need, are not counted):

- traces/s of the whole evaluation: ``evaluate_traces`` and one JSON record per trace, redacted with one
  ``Redactor`` for the run as the CLI does; then the same with records not redacted (``--keep-pii``) over as many
  other traces (seed + 1), so that this pass too reads texts no pass has read (the checks remember their readings
  per text: over the same traces again a pass would cost a third); each with its CPU time a trace, the figure to
  compare on a machine shared with other work (wall time counts the waits);
- with ``--sgd N``, the whole evaluation (records redacted) of the first N traces of SGD's tuning half
  (``aem_bench.trace_sets.sgd_traces``, read where it lies, ``../shared/external_data/sgd``; skipped with a line
  saying so when it is not there), with no policy, as ``benchmarks/trace_realdata.py`` judges them: real
  dialogs whose observations are lists of results;
- the time of each stage alone over the same traces: each check of ``aem_strands.trace.checks.CHECKS`` (on the
  effective environment), the diagnosis, building the records, and redacting them; with its share of the sum.
  Their texts were read by the first pass, so these are the rules' own times with the readings remembered
  (Presidio's scans aside, emptied before each stage); the first reading of a text is in the whole passes.

With ``--profile N``, a last whole pass (records redacted) over other traces again (seed + 2) runs under
``cProfile`` and its N costliest functions are printed, by time spent in each itself and by time with their callees
(the profiler's own cost inflates pure-Python code, so read the shares, not the milliseconds).

Presidio's scans are remembered per text and per run of digits (``aem_strands.trace.pii``); ``pii.clear_caches()``
empties them before every timed pass, so each pass pays for its own scans, as one run of the CLI does. Figures
depend on the machine and its load; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from aem_strands.trace import pii
from aem_strands.trace.checks import CHECKS
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.requests import _scorer
from aem_strands.trace.diagnose import diagnose
from aem_strands.trace.evaluate import evaluate_traces
from aem_strands.trace.load import parse_trace
from aem_strands.trace.pii import Redactor
from aem_strands.trace.policy import load_policy, merge_environment
from aem_strands.trace.record import trace_record, unredacted_record
from aem_strands.trace.types import (
    ActionType,
    Dimension,
    DimensionVerdict,
    Environment,
    Step,
    StepCost,
    Trace,
    TraceResult,
)
from aem_strands.trace.values import ComparatorValues
from aem_strands.types import JsonValue

ROOT = Path(__file__).resolve().parent.parent
POLICY = ROOT / "examples" / "data" / "traces" / "policy.yaml"
MIN_STEPS, MAX_STEPS = 4, 40
WARM_UP = 8


# --- generated traces ------------------------------------------------------------------------------------------


class _Builder:
    """Steps of one generated trace, numbered as they are added."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.steps: list[Step] = []

    def add(self, kind: ActionType, **fields: Any) -> None:
        cost = StepCost(
            self.rng.randint(300, 1200), self.rng.randint(20, 120), round(self.rng.uniform(0.001, 0.006), 4)
        )
        self.steps.append(
            Step(
                step_id=f"s{len(self.steps) + 1}",
                index=len(self.steps),
                action_type=kind,
                latency_ms=float(self.rng.randint(50, 1500)),
                cost=cost,
                **fields,
            )
        )

    def user(self, text: str) -> None:
        self.add(ActionType.USER, content=text)

    def call(self, tool: str, arguments: dict[str, JsonValue], observation: JsonValue = None, **fields: Any) -> None:
        self.add(ActionType.TOOL_CALL, tool_name=tool, arguments=arguments, observation=observation, **fields)

    def reply(self, text: str) -> None:
        self.add(ActionType.RESPONSE, content=text)

    def filler(self, order: str, refunds: bool) -> None:
        """Three clean steps: the user names another order, the agent looks it up and says what it found (the
        order's status, or with ``refunds`` its refund's: the only lookup a refund-status goal allows)."""
        if refunds:
            days = self.rng.randint(2, 9)
            self.user(f"And where is the refund for order {order}?")
            observation: JsonValue = {"order_id": order, "refund_status": "approved", "days_to_arrive": days}
            self.call("get_refund_status", {"order_id": order}, observation)
            self.reply(f"The refund for order {order} is approved; it should arrive within {days} days.")
            return
        status = self.rng.choice(["shipped", "processing", "delivered"])
        self.user(f"Also, what is the status of order {order}?")
        self.call("get_order", {"order_id": order}, {"order_id": order, "status": status})
        self.reply(f"Order {order} is {status}.")


def _identity(b: _Builder, customer: str, born: str) -> None:
    b.call("verify_identity", {"customer_id": customer, "date_of_birth": born}, {"verified": True})


def _clean_refund_status(b: _Builder, order: str, customer: str, born: str) -> str:
    b.user(f"Where is my refund for order {order}? My customer id is {customer} and I was born {born}.")
    _identity(b, customer, born)
    days = b.rng.randint(2, 9)
    b.call("get_refund_status", {"order_id": order}, {"order_id": order, "refund_status": "approved",
                                                      "days_to_arrive": days})  # fmt: skip
    b.reply(f"Your refund for order {order} is approved; it should arrive within {days} days.")
    return f"Tell the customer their refund status for order {order}"


def _refund_without_identity(b: _Builder, order: str, customer: str, born: str) -> str:
    b.user(f"My mug from order {order} arrived broken, I'd like my money back.")
    b.call("check_refund_eligibility", {"order_id": order}, {"eligible": True, "amount": 12.5})
    b.reply(f"Order {order} can be refunded: $12.50 back to your card. Shall I issue the refund?")
    b.user("Yes, please do.")
    b.call("issue_refund", {"order_id": order, "amount": 12.5}, {"refund_id": "RF-77", "status": "issued"})
    b.reply(f"Done: the refund of $12.50 for order {order} is issued (reference RF-77).")
    return f"Refund the damaged mug of order {order}"


def _cancel_without_consent(b: _Builder, order: str, customer: str, born: str) -> str:
    b.user(f"Has order {order} shipped yet? Customer id {customer}, born {born}.")
    _identity(b, customer, born)
    b.call("get_order", {"order_id": order}, {"order_id": order, "status": "processing"})
    b.call("cancel_order", {"order_id": order}, {"order_id": order, "status": "cancelled"})
    b.reply(f"Order {order} had not shipped yet, so I cancelled it.")
    return f"Tell the customer whether order {order} has shipped"


def _looped_lookup(b: _Builder, order: str, customer: str, born: str) -> str:
    b.user(f"What's the status of order {order}?")
    for _ in range(b.rng.randint(2, 4)):
        b.call("get_order", {"order_id": order}, {"order_id": order, "status": "shipped"})
    b.reply(f"Order {order} has shipped.")
    return f"Tell the customer the status of order {order}"


def _timeout_hidden(b: _Builder, order: str, customer: str, born: str) -> str:
    b.user(f"Order {order} never arrived, please refund it.")
    b.call("check_refund_eligibility", {"order_id": order},
           error="timeout: the eligibility service did not answer within 30000 ms")  # fmt: skip
    b.reply(f"Done! Your refund for order {order} has been processed.")
    return f"Refund order {order}, which never arrived"


def _contradicts_observation(b: _Builder, order: str, customer: str, born: str) -> str:
    b.user(f"Can I still return order {order} for a refund?")
    b.call("check_refund_eligibility", {"order_id": order},
           {"order_id": order, "eligible": False, "reason": "outside the 30-day return window"})  # fmt: skip
    b.reply(f"Good news: order {order} is refundable, you can send it back for a full refund.")
    return f"Tell the customer whether order {order} can be refunded"


def _ungrounded_id(b: _Builder, order: str, customer: str, born: str) -> str:
    other = f"ORDER_{b.rng.randint(100000, 999999)}"
    b.user(f"When will order {order} arrive?")
    b.call("get_delivery_estimate", {"order_id": other}, {"order_id": other, "days": 3})
    b.reply(f"Order {other} should arrive within 3 days.")
    return f"Tell the customer when order {order} arrives"


STORIES: dict[str, Callable[[_Builder, str, str, str], str]] = {
    "clean_refund_status": _clean_refund_status,
    "refund_without_identity": _refund_without_identity,
    "cancel_without_consent": _cancel_without_consent,
    "looped_lookup": _looped_lookup,
    "timeout_hidden": _timeout_hidden,
    "contradicts_observation": _contradicts_observation,
    "ungrounded_id": _ungrounded_id,
}
"""Each story writes its steps and returns the trace's goal."""


def generate_trace(rng: random.Random, number: int) -> tuple[str, Trace]:
    """One generated trace: (story, trace). The story's steps come last, after as many clean lookups as fit in a
    length drawn from 4-40 steps (at least one when the story alone is shorter than 4)."""
    story = rng.choice(sorted(STORIES))
    order, customer = f"ORDER_{rng.randint(100000, 999999)}", f"C-{rng.randint(1000, 9999)}"
    born = f"19{rng.randint(50, 99)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    core = _Builder(rng)
    goal = STORIES[story](core, order, customer, born)
    target = rng.randint(max(MIN_STEPS, len(core.steps)), MAX_STEPS)
    b = _Builder(rng)
    for _ in range(max(-(-(MIN_STEPS - len(core.steps)) // 3), (target - len(core.steps)) // 3)):
        b.filler(f"ORDER_{rng.randint(100000, 999999)}", refunds=story == "clean_refund_status")
    for step in core.steps:
        b.steps.append(replace(step, step_id=f"s{len(b.steps) + 1}", index=len(b.steps)))
    replies = [s.content for s in b.steps if s.action_type is ActionType.RESPONSE]
    trace = Trace(f"{story}-{number}", tuple(b.steps), case_id=story, goal=goal, final_response=replies[-1])
    return story, trace


def generate_traces(count: int, seed: int = 0) -> list[tuple[str, Trace]]:
    """``count`` generated traces (see the module docstring); the same for the same seed."""
    rng = random.Random(seed)
    return [generate_trace(rng, i) for i in range(count)]


# --- timing ----------------------------------------------------------------------------------------------------


def _timed(work: Callable[[], object]) -> float:
    pii.clear_caches()  # every pass pays for its own scans (within a pass they are remembered, as in a run)
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _whole(traces: Sequence[Trace], policy: Environment | None, redact: bool) -> list[dict[str, JsonValue]]:
    redactor = Redactor().redact_json if redact else None
    return [trace_record(r, redactor) for r in evaluate_traces(traces, policy=policy) if isinstance(r, TraceResult)]


def _check_pass(
    check: Callable[[Trace, Environment, TraceContext], DimensionVerdict],
    traces: Sequence[Trace],
    envs: Sequence[Environment],
) -> Callable[[], object]:
    context = TraceContext(ComparatorValues())
    return lambda: [check(t, e, context) for t, e in zip(traces, envs, strict=True)]


def _sgd(count: int) -> None:
    """The whole evaluation, records redacted, of the first ``count`` SGD tuning traces (see the module docstring)."""
    from aem_bench.trace_sets import SGD_DIR, sgd_traces

    if not (SGD_DIR / "test_schema.json").is_file():
        print(f"SGD tuning traces: not found at {SGD_DIR} (the SGD test set, read where it lies); skipped")
        return
    real = [parse_trace(raw) for raw in sgd_traces(SGD_DIR, split="tuning", limit=count)]
    cpu = time.process_time()
    seconds = _timed(lambda: _whole(real, None, redact=True))
    cpu = time.process_time() - cpu
    print(f"SGD tuning, records redacted, no policy: {len(real)} traces in {seconds:.2f} s = "
          f"{len(real) / seconds:.1f} traces/s; CPU {1000 * cpu / len(real):.2f} ms a trace")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", type=int, default=3000, help="how many traces to generate (default 3000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generator (default 0)")
    parser.add_argument("--policy", type=Path, default=POLICY, help="policy file (default: the example policy)")
    parser.add_argument("--sgd", type=int, default=0, help="also judge the first N SGD tuning traces (default 0)")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="N", help="also profile a whole pass: its N costliest functions"
    )
    args = parser.parse_args(argv)
    if args.traces < 1:
        parser.error(f"--traces must be at least 1, got {args.traces}")
    if args.profile < 0:
        parser.error(f"--profile must be 0 or more, got {args.profile}")
    policy = load_policy(args.policy)
    generated = generate_traces(args.traces, args.seed)
    traces = [t for _, t in generated]
    lengths = [len(t.steps) for t in traces]
    stories = Counter(story for story, _ in generated)
    print(f"{len(traces)} traces (seed {args.seed}), {sum(lengths)} steps, {min(lengths)}-{max(lengths)} a trace "
          f"(mean {sum(lengths) / len(traces):.1f}); policy {args.policy.name}")  # fmt: skip
    print("stories: " + ", ".join(f"{name} {stories[name]}" for name in sorted(stories)))
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start (other work skews figures)")
    _whole(traces[:WARM_UP], policy, redact=True)  # imports Presidio and warms the checks
    _scorer().vectors(["warm up"])  # loads MiniLM, which consent's reading of a request by meaning needs

    outcomes: list[dict[str, JsonValue]] = []
    cpu = time.process_time()
    redacted = _timed(lambda: outcomes.extend(_whole(traces, policy, redact=True)))
    cpu_redacted, cpu = time.process_time() - cpu, time.process_time()
    others = [t for _, t in generate_traces(args.traces, args.seed + 1)]  # texts no pass has read yet
    kept = _timed(lambda: _whole(others, policy, redact=False))
    cpu_kept = time.process_time() - cpu
    n = len(traces)
    print(f"whole evaluation, records redacted (as the CLI): {n} traces in {redacted:.2f} s = {n / redacted:.1f} "
          "traces/s")  # fmt: skip
    print(f"whole evaluation, records kept (--keep-pii):    {n} traces in {kept:.2f} s = {n / kept:.1f} traces/s")
    print(f"CPU a trace: {1000 * cpu_redacted / n:.2f} ms records redacted, {1000 * cpu_kept / n:.2f} ms kept (other "
          f"traces, seed {args.seed + 1})")  # fmt: skip
    statuses = Counter(str(r["status"]) for r in outcomes)
    print("outcomes: " + ", ".join(f"{s} {statuses[s]}" for s in sorted(statuses)))
    if args.sgd > 0:
        _sgd(args.sgd)

    envs = [merge_environment(policy, t.environment) for t in traces]
    stages: dict[str, float] = {}
    for dimension, check in CHECKS.items():
        stages[dimension.value] = _timed(_check_pass(check, traces, envs))
    context = TraceContext(ComparatorValues())
    verdicts = [{d: c(t, e, context) for d, c in CHECKS.items()} for t, e in zip(traces, envs, strict=True)]
    stages["diagnosis"] = _timed(lambda: [diagnose(t, v) for t, v in zip(traces, verdicts, strict=True)])
    results = [r for r in evaluate_traces(traces, policy=policy) if isinstance(r, TraceResult)]
    stages["record"] = _timed(lambda: [unredacted_record(r) for r in results])
    records = [unredacted_record(r) for r in results]
    redactor = Redactor()
    stages["redaction"] = _timed(lambda: [redactor.redact_json(r) for r in records])
    total = sum(stages.values())
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    print(f"per stage, each timed alone over the same {n} traces (sum {total:.2f} s):")
    for name, seconds in stages.items():
        kind = "dimension" if name in {d.value for d in Dimension} else "stage"
        print(f"  {kind:<9} {name:<15} {seconds:7.3f} s  {1000 * seconds / n:7.3f} ms/trace  "
              f"{100 * seconds / total:5.1f}%")  # fmt: skip
    if args.profile > 0:
        _profile([t for _, t in generate_traces(args.traces, args.seed + 2)], policy, args.profile)
    return 0


def _profile(traces: Sequence[Trace], policy: Environment, top: int) -> None:
    """The whole evaluation of ``traces`` (records redacted) under ``cProfile``: its ``top`` costliest functions by
    their own time and with their callees."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    pii.clear_caches()
    profiler.runcall(_whole, traces, policy, True)
    for order, title in (("tottime", "own time"), ("cumulative", "time with callees")):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(top)
        body = out.getvalue()
        print(f"profile of a whole pass over {len(traces)} other traces (seed + 2), by {title}:")
        print(body[body.index("   ncalls") :].rstrip() if "   ncalls" in body else body.rstrip())


if __name__ == "__main__":
    sys.exit(main())
