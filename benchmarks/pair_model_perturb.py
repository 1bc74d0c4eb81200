"""Hard training pairs for the reply pair model: one fact of a faithful paraphrase changed, or the acts changed.

Used by ``pair_model_data.py``; a sibling module, not part of the package. Each generator takes a
paraphrase pair ``(gold, predicted)`` that says the same (an SGD act-group pair, or an STS-B train
pair scored >= 4) and returns ``predicted`` with exactly one fact changed, or ``None`` when the
reply has nothing of that kind. The pair ``(gold, changed)`` is a hard negative (label 0) beside the
original positive, so the model sees the same wording on both sides of the line and has to read
the fact, not the overlap. The kinds follow issue 22's list of misses:

- ``role_swap``: two fillers of one kind trade places — the spans of two SGD slot values of the
  same kind (two places, two dates, two times, two amounts), two small counts ("3 beds and 2 baths")
  or the two ends of "from X to Y";
- ``time_flip``: am ↔ pm, "in the morning" ↔ "in the evening", quarter past ↔ quarter to, noon ↔ midnight;
- ``code_flip``: two different neighbouring digits of a number or code trade places (B12 → B21,
  1060 → 1600);
- ``negation``: the first auxiliary gets "not" (or loses it);
- ``scope``: a quantity or scope word is replaced (all → some, both → one of the, only → also ...).

``act_changes`` pairs SGD turns with the same slot values realised by other acts (a question asking
to confirm a booking against the report that it is booked; an offer against a notice of failure).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

Span = tuple[int, int, str]
"""(start, end, kind) of a slot value in an utterance."""

KINDS = (
    ("place", ("city", "location", "destination", "origin", "airport", "station", "where_to", "area", "address")),
    ("date", ("date",)),
    ("time", ("time",)),
    ("money", ("price", "fare", "amount", "balance", "rent")),
)


def slot_kind(slot: str) -> str | None:
    """The kind of an SGD slot whose values can trade places with another of the kind; ``None`` for the rest."""
    for kind, marks in KINDS:
        if any(mark in slot for mark in marks):
            return kind
    return None


def frame_spans(utterance: str, frame: dict[str, Any]) -> list[Span]:
    spans = []
    for slot in frame.get("slots", []):
        kind = slot_kind(slot["slot"])
        start, end = slot.get("start"), slot.get("exclusive_end")
        if kind and isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(utterance):
            spans.append((start, end, kind))
    return sorted(set(spans))


_FROM_TO = re.compile(
    r"\bfrom ((?:[A-Za-z0-9$']+ ?){1,3}?) to ((?:[A-Za-z0-9$']+ ?){1,3}?)(?=[.,?!]| on | at | for |$)"
)


_COUNT = re.compile(r"(?<![\d:$.,/+-])\b\d{1,2}\b(?![\d:.,/-]| ?(?:am|pm|a\.m|p\.m)\b)")


def role_swap(text: str, spans: Sequence[Span] = ()) -> str | None:
    """Two fillers of one kind trade places; ``None`` when the text has no two such fillers."""
    for i, (a0, a1, kind_a) in enumerate(spans):
        for b0, b1, kind_b in spans[i + 1 :]:
            first, second = text[a0:a1], text[b0:b1]
            if kind_a == kind_b and a1 <= b0 and first.lower() != second.lower():
                return text[:a0] + second + text[a1:b0] + first + text[b1:]
    numbers = list(_COUNT.finditer(text))
    for i, a in enumerate(numbers):
        for b in numbers[i + 1 :]:
            if a.group() != b.group():
                return text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]
    match = _FROM_TO.search(text)
    if match and match.group(1).strip().lower() != match.group(2).strip().lower():
        first, second = match.group(1).strip(), match.group(2).strip()
        return (
            text[: match.start()]
            + f"from {second} to {first}"
            + text[match.start() + len(f"from {first} to {second}") :]
        )
    return None


_HALF_DAY = {"morning": "evening", "evening": "morning", "afternoon": "morning", "night": "morning"}
_NOON = {"noon": "midnight", "midday": "midnight", "midnight": "noon"}
_FLIPS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"\b(\d{1,2}(?::\d{2})? ?)(a\.?m\.?|p\.?m\.?)", re.I),
     lambda m: m.group(1) + ({"a": "p", "p": "a", "A": "P", "P": "A"}[m.group(2)[0]] + m.group(2)[1:])),
    (re.compile(r"\bin the (morning|evening|afternoon|night)\b"),
     lambda m: "in the " + _HALF_DAY[m.group(1)]),
    (re.compile(r"\bquarter (past|after|to|before)\b"),
     lambda m: "quarter " + {"past": "to", "after": "to", "to": "past", "before": "past"}[m.group(1)]),
    (re.compile(r"\b(noon|midnight|midday)\b"), lambda m: _NOON[m.group(1)]),
    (re.compile(r"\bhalf past (\d{1,2})\b"), lambda m: f"half past {int(m.group(1)) % 12 + 1}"),
)  # fmt: skip


def time_flip(text: str) -> str | None:
    """The first time of day moved to the other half of the day (or the other side of the hour)."""
    for pattern, change in _FLIPS:
        match = pattern.search(text)
        if match:
            return text[: match.start()] + change(match) + text[match.end() :]
    return None


_DIGITS = re.compile(r"\b[A-Za-z]{0,3}\d{2,}[A-Za-z]?\b")


def code_flip(text: str) -> str | None:
    """Two different neighbouring digits of the first number or code with two or more digits trade places."""
    for match in _DIGITS.finditer(text):
        token = match.group()
        for i in range(len(token) - 1):
            a, b = token[i], token[i + 1]
            if a.isdigit() and b.isdigit() and a != b and not (i == 0 and b == "0"):
                changed = token[:i] + b + a + token[i + 2 :]
                return text[: match.start()] + changed + text[match.end() :]
    return None


_NEGATED = re.compile(r"\b(is|are|was|were|will|can|could|would|should|does|do|did|has|have|had)( not|n't)\b", re.I)
_AUXILIARY = re.compile(r"\b(is|are|was|were|will|can|could|would|should)\b(?! (?:to|been able)\b)")
_CONTRACTED = re.compile(r"\b(ca|wo|is|are|was|were|does|do|did|has|have|had|could|would|should)n't\b", re.I)
_UNCONTRACT = {"ca": "can", "wo": "will"}


def negation(text: str) -> str | None:
    """The first auxiliary negated, or the first negation dropped."""
    contracted = _CONTRACTED.search(text)
    if contracted:
        verb = contracted.group(1)
        return text[: contracted.start()] + _UNCONTRACT.get(verb.lower(), verb) + text[contracted.end() :]
    negated = _NEGATED.search(text)
    if negated:
        return text[: negated.start()] + negated.group(1) + text[negated.end() :]
    if re.search(r"\bnot\b", text):
        return re.sub(r"\bnot ", "", text, count=1)
    plain = _AUXILIARY.search(text)
    if plain:
        return text[: plain.end()] + " not" + text[plain.end() :]
    return None


_SCOPE = {
    "all": "some", "every": "one", "some": "all", "none": "all", "both": "one of the", "either": "both",
    "only": "also", "each": "one", "always": "sometimes", "never": "sometimes",
    "everyone": "someone", "nothing": "everything", "everything": "nothing", "several": "no",
}  # fmt: skip
_SCOPE_WORD = re.compile(r"\b(" + "|".join(sorted(_SCOPE, key=len, reverse=True)) + r")\b", re.I)


def scope(text: str) -> str | None:
    """The first scope or quantity word replaced by one that changes how much is claimed."""
    match = _SCOPE_WORD.search(text)
    if not match:
        return None
    word = match.group()
    other = _SCOPE[word.lower()]
    if word[0].isupper():
        other = other[0].upper() + other[1:]
    return text[: match.start()] + other + text[match.end() :]


PERTURBATIONS: dict[str, Callable[[str], str | None]] = {
    "time_flip": time_flip,
    "code_flip": code_flip,
    "negation": negation,
    "scope": scope,
}


def perturbed_pairs(
    positives: Sequence[tuple[str, str, Sequence[Span]]], rng: random.Random, per_kind: int
) -> list[dict[str, Any]]:
    """Up to ``per_kind`` hard negatives of each kind from the positive pairs ``(gold, predicted, spans of predicted)``:
    ``predicted`` with one fact changed, against ``gold``."""
    order = list(positives)
    rng.shuffle(order)
    made: dict[str, list[dict[str, Any]]] = {kind: [] for kind in ("role_swap", *PERTURBATIONS)}
    for gold, predicted, spans in order:
        kinds = list(made)
        rng.shuffle(kinds)
        for kind in kinds:
            if len(made[kind]) >= per_kind:
                continue
            changed = role_swap(predicted, spans) if kind == "role_swap" else PERTURBATIONS[kind](predicted)
            if changed is not None and changed != predicted:
                made[kind].append({"gold": gold, "predicted": changed, "label": 0.0, "case": kind})
                break
        if all(len(rows) >= per_kind for rows in made.values()):
            break
    return [row for kind in sorted(made) for row in made[kind]]


_CLOSING = frozenset({"REQ_MORE", "GOODBYE"})


def act_changes(
    part: dict[tuple[str, Any], list[tuple[str, str]]], rng: random.Random, limit: int
) -> list[dict[str, Any]]:
    """Pairs of SGD turns of one service whose acts carry the same slot values but whose act names differ (a
    question to confirm against a report of success, an offer against a notice of failure ...), label 0."""
    by_values: dict[tuple[str, tuple[Any, ...]], list[tuple[str, Any]]] = {}
    for key in sorted(part, key=repr):
        service, signature = key
        values = tuple(sorted((slot, vals) for _, slot, vals in signature if vals))
        if values:
            by_values.setdefault((service, values), []).append(key)
    rows: list[dict[str, Any]] = []
    for _, keys in sorted(by_values.items(), key=repr):
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                acts_a = {act for act, _, _ in a[1]} - _CLOSING
                acts_b = {act for act, _, _ in b[1]} - _CLOSING
                if acts_a == acts_b:  # only "anything else?" or "goodbye" differs: not a change of what is said
                    continue
                gold, predicted = rng.choice(part[a])[0], rng.choice(part[b])[0]
                rows.append({"gold": gold, "predicted": predicted, "label": 0.0, "case": "act_change"})
    rng.shuffle(rows)
    return rows[:limit]
