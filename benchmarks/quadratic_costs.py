"""Issue 21, cost that grows faster than the input: each case at a few sizes, with its time and peak memory.

Usage (from the repository root)::

    .venv/bin/python benchmarks/quadratic_costs.py [--quick]

Cases (synthetic, seeded):

- ``reply facts``: ``settle_reply`` on two replies of N characters, each a run of sentences naming places,
  times, dates, amounts and order numbers (every fact differing in part);
- ``reply names``: the same on prose naming N/80 distinct places, none shared;
- ``unpaired align``: ``UnpairedDialog.alignment`` of N gold tool calls against a prediction with about 1% of
  turns dropped, inserted or changed; and N against N calls to another tool (beyond ``MAX_ALIGN_CELLS`` this is
  the documented ``InputError``, printed as such);
- ``order group``: ``evaluate_dialog`` (exact scorer) of one N-member order-invariant group of calls to 20
  tools, shuffled, one argument changed;
- ``grounding``: ``check_arguments`` on a trace of N steps (user messages and tool calls with JSON observations
  of dates, amounts, phones and ids), each call's values never grounded (issue 29: every lookup once scanned
  every earlier typed value).

Issue 29, the ``trace`` command (``aem-strands trace FILE --scorer exact``, records redacted as by default), one
trace a case, each run in a forked process that is stopped at ``--cap`` seconds (default 120; reported as
``over the cap``, not waited on):

- ``trace observation``: one text observation of 50 KB / 200 KB / 1 MB (the sentences of ``reply facts``) and a
  reply naming some of its facts (``result_use``);
- ``trace reply``: a 1 MB reply (``reply_signals`` over it: ``_implied_counts`` and the other readings);
- ``trace ungrounded``: 125 / 500 / 2,000 / 20,000 tool calls whose typed values (dates, amounts, ids) no earlier
  step gave (``GroundingIndex``; every value a finding, so the output grows with the steps too);
- ``trace unlinked``: 500 / 2,000 / 20,000 calls, each sent an id nothing gave and answered with a new
  reference: a finding at every call and no value passed on (the diagnosis tries every step);
- ``trace repeated``: 500 / 2,000 / 8,000 calls of one search answered with the same ten results, each sent a
  restaurant name only some of whose words were said (``GroundingIndex``: each copy of the results was read again,
  and a name's words looked up in every copy);
- ``trace sensitive``: a reply holding 1,000 card numbers and SSNs (the output size is printed:
  evidence that embeds the reply per finding grows as values x reply);
- ``trace steps``: a 20,000-step trace of small lookups (the goal: under a minute).

Prints one line per case and size: seconds (wall) and peak traced memory (``tracemalloc``, which itself slows
the run several times; ``--no-trace`` leaves it off and prints only seconds); the trace cases print seconds of
wall and CPU time and the bytes of output instead. Growth is what to read: doubling N should about double the
figures. ``--only TEXT`` runs the cases whose label holds TEXT.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import multiprocessing
import random
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aem_strands import evaluate_dialog
from aem_strands.cli import main as aem_main
from aem_strands.compare.replies import settle_reply
from aem_strands.errors import InputError
from aem_strands.unpaired import parse_unpaired

_PLACES = ["Pleasant Hill", "Grand Central Station", "Mill Valley", "Bank of America", "San Francisco"]
_FILLER = ["the", "a", "of", "and", "to", "in", "is", "was", "for", "on", "that", "with", "by", "it", "as", "at"]


def _facts_reply(size: int, seed: int) -> str:
    rng, parts, length = random.Random(seed), [], 0
    while length < size:
        part = (
            f"The train to {rng.choice(_PLACES)} leaves at {rng.randint(1, 12)} pm on May {rng.randint(1, 28)}"
            f" and costs ${rng.randint(10, 999)}. Your booking ORDER_{rng.randint(100, 999)} is confirmed. "
        )
        parts.append(part)
        length += len(part)
    return "".join(parts)[:size]


def _names_reply(size: int, seed: int) -> str:
    rng, parts, length = random.Random(seed), [], 0
    while length < size:
        name = f"{rng.choice(['Hotel', 'Station', 'Park'])} {chr(65 + rng.randint(0, 25))}{rng.randint(0, 99999)}x"
        part = " ".join(rng.choice(_FILLER) for _ in range(8)) + f" {name} " + " ".join(_FILLER[:5]) + ". "
        parts.append(part)
        length += len(part)
    return "".join(parts)[:size]


def _call(index: int, tool: str = "") -> dict[str, object]:
    return {"turn": "Tool", "tool_id": tool or f"tool{index % 7}", "action": "Get", "args": {"id": index}}


def _edited(count: int) -> Callable[[], object]:
    rng = random.Random(0)
    gold = [_call(i) for i in range(count)]
    predicted: list[dict[str, object]] = []
    for turn in gold:
        roll = rng.random()
        if roll < 0.004:
            continue
        if roll < 0.008:
            predicted.append({"turn": "Agent", "response": "one moment"})
        predicted.append(dict(turn, args={"id": -1}) if roll < 0.012 else turn)
    dialog = parse_unpaired({"dialog_id": f"edited-{count}", "gold": gold, "predicted": predicted})
    return dialog.alignment


def _unrelated(count: int) -> Callable[[], object]:
    gold, predicted = [_call(i, "a") for i in range(count)], [_call(i, "b") for i in range(count)]
    return parse_unpaired({"dialog_id": f"unrelated-{count}", "gold": gold, "predicted": predicted}).alignment


def _group(count: int) -> Callable[[], object]:
    rng = random.Random(0)
    golds = [{"tool_id": f"t{rng.randint(0, 19)}", "action": "Get", "args": {"id": i}} for i in range(count)]
    preds = list(golds)
    rng.shuffle(preds)
    preds[0] = dict(preds[0], args={"id": -1})
    dialog = [
        {"turn_no": i + 1, "turn": "Tool", "gold_turn": g, "predict_turn": p, "tags": ["OrderInvariant_x"]}
        for i, (g, p) in enumerate(zip(golds, preds, strict=True))
    ]
    return lambda: evaluate_dialog(dialog, scorer="exact")


def _never_grounded(count: int) -> Callable[[], object]:
    """A trace of ``count`` steps whose call arguments nothing earlier grounds (a new date, amount, phone, id)."""
    from aem_strands.trace.checks.arguments import check_arguments
    from aem_strands.trace.checks.context import TraceContext
    from aem_strands.trace.types import ActionType, Environment, Step, Trace
    from aem_strands.trace.values import ComparatorValues

    rng, steps = random.Random(0), []
    for i in range(count):
        if i % 2 == 0:
            order, day, dollars = rng.randint(1000, 9999), rng.randint(1, 28), rng.randint(10, 99)
            text = f"Please check order {order} from May {day}, about ${dollars}."
            steps.append(Step(f"s{i}", i, ActionType.USER, content=text))
            continue
        arguments = {
            "when": f"2030-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "amount": rng.randint(10**5, 10**6) + 0.25,
            "phone": f"+1 415 {rng.randint(200, 999)} {rng.randint(1000, 9999)}",
            "ref": f"QX{rng.randint(10**6, 10**7)}",
        }
        observation = {"total": rng.randint(100, 999), "due": f"2031-{rng.randint(1, 12):02d}-01", "note": "ok"}
        steps.append(Step(f"s{i}", i, ActionType.TOOL_CALL, "lookup", arguments, observation))
    trace, ctx = Trace("grounding", tuple(steps)), TraceContext(ComparatorValues())
    return functools.partial(check_arguments, trace, Environment(), ctx)


def _measure(label: str, work: Callable[[], object], trace: bool) -> None:
    if trace:
        tracemalloc.start()
    started = time.perf_counter()
    try:
        work()
        outcome = "ok"
    except InputError as error:
        outcome = f"InputError: {error.message[:90]}..."
    seconds = time.perf_counter() - started
    peak = f"  peak {tracemalloc.get_traced_memory()[1] / 2**20:8.1f} MiB" if trace else ""
    if trace:
        tracemalloc.stop()
    print(f"{label:<34} {seconds:8.2f} s{peak}  {outcome}", flush=True)


def _step(index: int, kind: str, **fields: object) -> dict[str, object]:
    return {"step_id": f"s{index}", "action_type": kind, **fields}


def _observation_trace(size: int) -> dict[str, object]:
    text = _facts_reply(size, 1)
    return {"trace_id": f"observation-{size}", "steps": [
        _step(1, "user", content="Which trains leave for Mill Valley, and what do they cost?"),
        _step(2, "tool_call", tool_name="search_trains", arguments={"to": "Mill Valley"}, observation=text),
        _step(3, "response", content=text[:200].rsplit(".", 1)[0] + "."),
    ]}  # fmt: skip


def _reply_trace(size: int) -> dict[str, object]:
    return {"trace_id": f"reply-{size}", "steps": [
        _step(1, "user", content="Tell me about the trains."),
        _step(2, "tool_call", tool_name="search_trains", arguments={"to": "Mill Valley"},
              observation={"departures": ["3 pm", "5 pm"], "fare": "$25"}),
        _step(3, "response", content=_facts_reply(size, 2)),
    ]}  # fmt: skip


def _ungrounded_trace(count: int) -> dict[str, object]:
    rng = random.Random(count)
    steps = [_step(0, "user", content="Please sort out my bookings.")]
    for i in range(1, count + 1):
        arguments = {"booking": f"BK-{rng.randint(10**6, 10**7)}", "date": f"2025-{rng.randint(1, 12):02d}-"
                     f"{rng.randint(1, 28):02d}", "amount": round(rng.uniform(10, 999), 2)}  # fmt: skip
        observation = {
            "status": "ok",
            "ref": f"R{rng.randint(10**6, 10**7)}",
            "on": f"2024-{rng.randint(1, 12):02d}-01",
        }
        steps.append(_step(i, "tool_call", tool_name=f"update_booking_{i % 5}", arguments=arguments,
                           observation=observation))  # fmt: skip
    steps.append(_step(count + 1, "response", content="All bookings are updated."))
    return {"trace_id": f"ungrounded-{count}", "steps": steps}


def _unlinked_trace(count: int) -> dict[str, object]:
    """``count`` calls, each sent an id nothing gave and answered with a new reference: a finding at every call and
    no value passed on, so the diagnosis tries every step (issue 29: each try read every earlier step again)."""
    rng = random.Random(count)
    steps = [_step(0, "user", content="Please sort out my bookings.")]
    for i in range(1, count + 1):
        steps.append(_step(i, "tool_call", tool_name=f"update_booking_{i % 5}",
                           arguments={"booking": f"BK-{rng.randint(10**6, 10**7)}"},
                           observation={"ref": f"R{rng.randint(10**6, 10**7)}"}))  # fmt: skip
    steps.append(_step(count + 1, "response", content="All bookings are updated."))
    return {"trace_id": f"unlinked-{count}", "steps": steps}


def _repeated_trace(count: int) -> dict[str, object]:
    """``count`` calls of one search answered with the same ten results (a search run again, page after page),
    each sent a restaurant name only some of whose words were said: the grounding index once read every copy of the
    results again and looked through all of them for each name."""
    results = [{"restaurant_name": f"Place {i} Trattoria", "city": "San Jose", "cuisine": "Italian", "rating": "4.5",
                "phone_number": f"408-555-01{i:02d}", "date": "2019-03-05"} for i in range(10)]  # fmt: skip
    steps = [_step(0, "user", content="A table for two in San Jose on the 5th of March, please.")]
    for i in range(1, count + 1):
        arguments = {"city": "San Jose", "date": "2019-03-05", "name": f"Place {i} Bistro"}
        steps.append(_step(i, "tool_call", tool_name="find_restaurants", arguments=arguments, observation=results))
    steps.append(_step(count + 1, "response", content="Place 1 Trattoria has a table on March 5th."))
    return {"trace_id": f"repeated-{count}", "initial_state": {"today": "2019-03-01"}, "steps": steps}


def _card(index: int) -> str:
    """A Luhn-valid 16-digit card number starting 4111 (the check digit makes the sum a multiple of 10)."""
    body = f"4111{index:011d}"
    total = sum(int(d) if i % 2 else sum(divmod(int(d) * 2, 10)) for i, d in enumerate(body))
    return body + str(-total % 10)


def _sensitive_trace(count: int) -> dict[str, object]:
    # cards and SSNs: kinds a reply must not hold by default, so each is a finding of the safety check
    values = " ".join(f"Card {_card(i)} belongs to SSN {100 + i % 500:03d}-{10 + i % 89:02d}-{1000 + i:04d}."
                      for i in range(count // 2))  # fmt: skip
    return {"trace_id": f"sensitive-{count}", "steps": [
        _step(1, "user", content="Who should I contact?"),
        _step(2, "tool_call", tool_name="contacts", arguments={}, observation={"found": count}),
        _step(3, "response", content=values),
    ]}  # fmt: skip


def _long_trace(count: int) -> dict[str, object]:
    steps = [_step(0, "user", content="Check every order of mine, ORDER_1 to ORDER_9.")]
    for i in range(1, count + 1):
        order = f"ORDER_{i % 9 + 1}"
        steps.append(_step(i, "tool_call", tool_name="get_order", arguments={"order_id": order},
                           observation={"order_id": order, "status": "shipped"}))  # fmt: skip
    steps.append(_step(count + 1, "response", content="Every order has shipped."))
    return {"trace_id": f"steps-{count}", "steps": steps}


def _trace_run(path: Path, results: Any) -> None:
    """One ``trace`` run, in a forked process: its wall and CPU seconds, output bytes and exit code."""
    out, err = io.StringIO(), io.StringIO()
    started, cpu = time.perf_counter(), time.process_time()
    code = aem_main(["trace", str(path), "--scorer", "exact", "--format", "jsonl"], stdout=out, stderr=err)
    results.put((time.perf_counter() - started, time.process_time() - cpu, len(out.getvalue().encode()), code,
                 err.getvalue().strip().splitlines()[-1:]))  # fmt: skip


def _measure_trace(label: str, trace: dict[str, object], folder: Path, cap: float) -> None:
    path = folder / f"{trace['trace_id']}.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    worker = context.Process(target=_trace_run, args=(path, results))
    worker.start()
    worker.join(cap)
    size = f"{path.stat().st_size / 2**10:8.0f} KiB in"
    if worker.is_alive():
        worker.kill()
        worker.join()
        print(f"{label:<34} over the cap of {cap:.0f} s (stopped)  {size}", flush=True)
        return
    if results.empty():
        print(f"{label:<34} failed (exit {worker.exitcode})  {size}", flush=True)
        return
    seconds, cpu, written, code, last = results.get()
    note = f"  exit {code}" + (f": {last[0][:80]}" if code not in (0, 1, 4) and last else "")
    print(f"{label:<34} {seconds:8.2f} s  cpu {cpu:7.2f} s  {size}  {written / 2**10:8.0f} KiB out{note}", flush=True)


def _trace_cases(quick: bool, cap: float, chosen: Callable[[str], bool]) -> None:
    cases: list[tuple[str, Callable[[], dict[str, object]]]] = []
    for size in (50_000, 200_000) if quick else (50_000, 200_000, 1_000_000):
        cases.append((f"trace observation {size // 1000:,} KB", functools.partial(_observation_trace, size)))
    cases.append(("trace reply 1 MB", functools.partial(_reply_trace, 1_000_000)))
    for count in (125, 500) if quick else (125, 500, 2_000, 20_000):
        cases.append((f"trace ungrounded {count:,} steps", functools.partial(_ungrounded_trace, count)))
    for count in (500, 2_000) if quick else (500, 2_000, 20_000):
        cases.append((f"trace unlinked {count:,} steps", functools.partial(_unlinked_trace, count)))
    for count in (500, 2_000) if quick else (500, 2_000, 8_000):
        cases.append((f"trace repeated {count:,} steps", functools.partial(_repeated_trace, count)))
    cases.append(("trace sensitive 1,000 values", functools.partial(_sensitive_trace, 1_000)))
    cases.append(
        (f"trace steps {2_000 if quick else 20_000:,}", functools.partial(_long_trace, 2_000 if quick else 20_000))
    )
    cases = [(label, make) for label, make in cases if chosen(label)]
    if not cases:
        return
    with tempfile.TemporaryDirectory() as folder:
        warm = Path(folder) / "warm.json"  # imports (Presidio, the checks) paid here, once, before the forks
        warm.write_text(json.dumps(_long_trace(3)), encoding="utf-8")
        started = time.perf_counter()
        aem_main(["trace", str(warm), "--scorer", "exact"], stdout=io.StringIO(), stderr=io.StringIO())
        print(f"{'trace warm-up: imports, 3 steps':<34} {time.perf_counter() - started:8.2f} s", flush=True)
        for label, make in cases:
            _measure_trace(label, make(), Path(folder), cap)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smaller sizes only")
    parser.add_argument("--no-trace", action="store_true", help="no tracemalloc (faster; no memory figure)")
    parser.add_argument("--cap", type=float, default=120.0, help="seconds a trace case may run (default 120)")
    parser.add_argument("--only", help="run the cases whose label holds this text")
    args = parser.parse_args()
    trace = not args.no_trace

    def chosen(label: str) -> bool:
        return args.only is None or args.only in label

    chars = (100_000, 200_000) if args.quick else (100_000, 400_000, 1_000_000)
    turns = (500, 1_000) if args.quick else (500, 1_500, 3_000)
    group = (250, 500) if args.quick else (500, 1_000, 2_000)
    for size in chars:
        if chosen(f"reply facts {size:,} chars"):
            gold, predicted = _facts_reply(size, 1), _facts_reply(size, 2)
            _measure(f"reply facts {size:,} chars", functools.partial(settle_reply, gold, predicted), trace)
    for size in chars:
        if chosen(f"reply names {size:,} chars"):
            gold, predicted = _names_reply(size, 1), _names_reply(size, 2)
            _measure(f"reply names {size:,} chars", functools.partial(settle_reply, gold, predicted), trace)
    for count in turns:
        if chosen(label := f"unpaired align {count:,} turns, 1% edits"):
            _measure(label, _edited(count), trace)
    for count in turns:
        if chosen(label := f"unpaired align {count:,} turns, unrelated"):
            _measure(label, _unrelated(count), trace)
    for count in group:
        if chosen(label := f"order group {count:,} members"):
            _measure(label, _group(count), trace)
    for count in (125, 500) if args.quick else (125, 500, 2_000):
        if chosen(label := f"grounding {count:,} steps, never grounded"):
            _measure(label, _never_grounded(count), trace)
    _trace_cases(args.quick, args.cap, chosen)


if __name__ == "__main__":
    main()
