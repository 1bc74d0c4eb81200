"""Fuzzed input documents for the loader and the scorer (issue 9), and the one check they must pass.

``documents()`` is a Hypothesis strategy of (bytes, file suffix): arbitrary JSON, dialogs in the SPEC §3 shape with
arbitrary values plugged in, lone surrogates (escaped and raw), numbers with thousands of digits or beyond float
range, nesting thousands deep, raw line separators, truncated text and stray bytes. ``check`` loads one document
from a file and scores what loaded with the exact scorer: only ``AemError`` may escape.

``python benchmarks/fuzz_documents.py [N]`` runs N documents (default 10,000) and prints what happened;
``tests/test_fuzz_load.py`` runs a modest number on every test run.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aem_strands import AemError, evaluate_dialogs, load_dialogs

SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
ODD_TEXT = ["\u2028", "\u2029", "\x85", "\r", "\x1b[2K", "\u202e", "\x00", "NaN", "1e999", "-0", "\ufeff", ""]
WORDS = ["revenue", "profit", "EU", "2019-03-01", "tomorrow", "3 kg", "NYC", "+1 415 555 0100", "ds-7", "Hi.", "yes"]

# Mostly ordinary values (so most dialogs load and reach the scorer), sometimes hostile ones.
odd_texts = st.one_of(
    st.text(max_size=8),
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SURROGATES + ODD_TEXT)), max_size=3).map("".join),
)
texts = st.one_of(st.sampled_from(WORDS), st.sampled_from(WORDS), st.sampled_from(WORDS), odd_texts)
odd_numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=10**50, max_value=10**400),
    st.sampled_from([1e308, 2**63, -(2**64), -0.0]),
)
numbers = st.one_of(st.integers(-5, 5), st.integers(-5, 5), st.floats(-10, 10), odd_numbers)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts, texts)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(WORDS) | texts, inner, max_size=3)
    ),
    max_leaves=6,
)
names = st.one_of(st.sampled_from(["t", "reports", "mail"]), st.sampled_from(["t", "reports"]), texts)


@st.composite
def turns(draw: st.DrawFn, number: int) -> dict[str, Any]:
    tool = draw(st.booleans())

    def side() -> dict[str, Any]:
        if tool:
            out: dict[str, Any] = {"tool_id": draw(names), "action": draw(st.sampled_from(["A", "Filter"]) | names)}
            out["args"] = draw(st.dictionaries(st.sampled_from(["x", "metric", "when"]) | texts, values, max_size=3))
        else:
            out = {"response": draw(texts) if draw(st.integers(0, 5)) else draw(values)}
        if draw(st.integers(0, 3)) == 0:
            out["observation"] = draw(values)
        return out

    turn: dict[str, Any] = {
        "turn_no": number if draw(st.integers(0, 9)) else draw(numbers),
        "turn": "Tool" if tool else "Agent",
        "gold_turn": side(),
        "predict_turn": side(),
    }
    for key, strategy in (
        ("tags", st.lists(st.sampled_from(["OrderInvariant_g", "x"]) | texts, max_size=2)),
        ("depends_on", st.lists(st.integers(0, number), max_size=2)),
        ("critical", st.booleans() | values),
        ("weight", numbers),
        ("latency_ms", numbers),
    ):
        if draw(st.integers(0, 7)) == 0:
            turn[key] = draw(strategy)
    return turn


@st.composite
def dialogs(draw: st.DrawFn) -> Any:
    count = draw(st.integers(1, 3))
    body = [draw(turns(n)) for n in range(1, count + 1)]
    shape = draw(st.sampled_from(["object", "object", "bare", "unpaired"]))
    metadata = draw(
        st.none() | st.dictionaries(st.sampled_from(["reference_date", "date", "note"]) | texts, values, max_size=2)
    )
    dialog_id = draw(st.sampled_from(["d1", "d2", "d3"]) | texts) if draw(st.integers(0, 5)) else draw(values)
    if shape == "bare":
        return body
    if shape == "unpaired":
        gold = [{"turn": t["turn"], **t["gold_turn"]} for t in body]
        predicted = [{"turn": t["turn"], **t["predict_turn"]} for t in body]
        return {"dialog_id": dialog_id, "metadata": metadata, "gold": gold, "predicted": predicted}
    return {"dialog_id": dialog_id, "metadata": metadata, "turns": body}


def _encode(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only, allow_nan=True)


@st.composite
def documents(draw: st.DrawFn) -> tuple[bytes, str]:
    """One input file's bytes and its suffix."""
    records = draw(st.lists(st.one_of(dialogs(), dialogs(), dialogs(), values), min_size=1, max_size=3))
    ascii_only = draw(st.booleans())
    layout = draw(st.sampled_from(["jsonl", "array", "single"]))
    if layout == "jsonl":
        text = "".join(_encode(r, ascii_only) + "\n" for r in records)
    elif layout == "array":
        text = "[\n" + ",\n".join(_encode(r, ascii_only) for r in records) + "\n]"
    else:
        text = _encode(records[0], ascii_only)
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        text = draw(_mutation(text))
    suffix = draw(st.sampled_from([".json", ".jsonl", ".ndjson", ".JSONL", ".txt", ""]))
    return text.encode("utf-8", "surrogatepass"), suffix


@st.composite
def _mutation(draw: st.DrawFn, text: str) -> str:
    at = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["digits", "deep", "truncate", "insert", "separator"]))
    if kind == "digits":
        return text[:at] + " " + "7" * draw(st.sampled_from([400, 4301, 5000, 20000])) + " " + text[at:]
    if kind == "deep":
        depth = draw(st.sampled_from([101, 999, 1000, 5000, 100_000]))
        return text[:at] + "[" * depth + "]" * depth + text[at:]
    if kind == "truncate":
        return text[:at]
    if kind == "separator":
        return text[:at] + draw(st.sampled_from(["\u2028", "\u2029", "\x85", "\r", "\n", "\r\n"])) + text[at:]
    return (
        text[:at] + draw(st.sampled_from(['"\\ud800"', "NaN", "-Infinity", "1e400", ",", "}", '"', "\\"])) + text[at:]
    )


def check(data: bytes, suffix: str, folder: Path) -> str:
    """Load ``data`` as a file with ``suffix`` and score what loaded; returns the outcome's name.

    Raises whatever escapes that is not an ``AemError``.
    """
    path = folder / f"doc{suffix}"
    path.write_bytes(data)
    try:
        loaded = load_dialogs(path)
    except AemError:
        return "file refused"
    try:
        evaluate_dialogs(list(loaded), scorer="exact")
    except AemError:
        return "scoring refused"
    return f"{len(loaded)} scored, {len(loaded.errors)} errors" if loaded.errors else f"{len(loaded)} scored"


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    outcomes: Counter[str] = Counter()
    escaped: Counter[str] = Counter()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:

        @settings(max_examples=count, database=None, deadline=None, suppress_health_check=list(HealthCheck))
        @given(documents())
        def run(document: tuple[bytes, str]) -> None:
            try:
                outcome = check(*document, Path(folder))
            except Exception as error:  # what the fuzz looks for: anything that is not our error (counted, not raised)
                escaped[f"{type(error).__name__}: {str(error)[:80]}"] += 1
                outcome = "ESCAPED"
            outcomes["errors only" if outcome.startswith("0 scored") else outcome.split(",")[0]] += 1

        run()
    seconds = time.perf_counter() - started
    total = sum(outcomes.values())
    print(f"{total} fuzzed documents in {seconds:.0f} s; {sum(escaped.values())} raised something other than AemError")
    for name, n in outcomes.most_common(8):
        print(f"  {n:>6}  {name}")
    for name, n in escaped.most_common():
        print(f"  ESCAPED {n:>6}  {name}")
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
