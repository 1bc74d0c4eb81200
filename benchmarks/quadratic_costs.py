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

Prints one line per case and size: seconds (wall) and peak traced memory (``tracemalloc``, which itself slows
the run several times; ``--no-trace`` leaves it off and prints only seconds). Growth is what to read: doubling N
should about double the figures.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
import tracemalloc
from collections.abc import Callable

from aem_strands import evaluate_dialog
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smaller sizes only")
    parser.add_argument("--no-trace", action="store_true", help="no tracemalloc (faster; no memory figure)")
    args = parser.parse_args()
    trace = not args.no_trace
    chars = (100_000, 200_000) if args.quick else (100_000, 400_000, 1_000_000)
    turns = (500, 1_000) if args.quick else (500, 1_500, 3_000)
    group = (250, 500) if args.quick else (500, 1_000, 2_000)
    for size in chars:
        gold, predicted = _facts_reply(size, 1), _facts_reply(size, 2)
        _measure(f"reply facts {size:,} chars", functools.partial(settle_reply, gold, predicted), trace)
    for size in chars:
        gold, predicted = _names_reply(size, 1), _names_reply(size, 2)
        _measure(f"reply names {size:,} chars", functools.partial(settle_reply, gold, predicted), trace)
    for count in turns:
        _measure(f"unpaired align {count:,} turns, 1% edits", _edited(count), trace)
    for count in turns:
        _measure(f"unpaired align {count:,} turns, unrelated", _unrelated(count), trace)
    for count in group:
        _measure(f"order group {count:,} members", _group(count), trace)
    for count in (125, 500) if args.quick else (125, 500, 2_000):
        _measure(f"grounding {count:,} steps, never grounded", _never_grounded(count), trace)


if __name__ == "__main__":
    main()
