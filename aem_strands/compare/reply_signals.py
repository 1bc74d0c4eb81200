"""What a reply states, extracted deterministically: numbers, polarity, named entities, requests.

- ``numbers_in``: the numbers stated, as a multiset; times of day are read as one value
  (``7 pm`` and ``19:00`` are both 19:00), ordinals as their number (``8th`` is 8), number words
  above three as digits (``twenty`` is 20), thousands separators dropped (``1,200`` is 1200).
- ``polarity``: ``negative`` when the reply reports a failure or a negation (``failed``, ``cannot``,
  ``sorry``, ``not``...), else ``positive``.
- ``entities_in``: capitalised words that are not the first word of a sentence (``Paris``, ``Delta``).
- ``asks``: whether the reply asks the user something (a ``?`` or a request such as ``please tell me``);
  ``requests_information``: whether it asks for information (a wh-question or ``please tell me``),
  as opposed to an offer or a confirmation phrased as a question.
"""

from __future__ import annotations

import re
from collections import Counter

from text_to_num import alpha2digit  # type: ignore[import-untyped]  # text2num ships no types

_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_CLOCK = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_NUMBER = re.compile(r"(?<![\w.])[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:st|nd|rd|th)?(?![\w])")
_NEGATIVE = frozenset(
    [
        "not",
        "no",
        "never",
        "cannot",
        "can't",
        "won't",
        "didn't",
        "don't",
        "doesn't",
        "isn't",
        "wasn't",
        "aren't",
        "weren't",
        "couldn't",
        "wouldn't",
        "shouldn't",
        "haven't",
        "hasn't",
        "hadn't",
        "unable",
        "failed",
        "fail",
        "fails",
        "failure",
        "unsuccessful",
        "unfortunately",
        "sorry",
        "unavailable",
        "declined",
        "denied",
        "nothing",
        "none",
        "nobody",
        "neither",
        "nor",
        "without",
    ]
)
_NOT_NEGATIONS = re.compile(r"\b(no problem|not a problem|no worries|not only|no doubt|why not|no matter)\b")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_REQUESTS = re.compile(
    r"\b(please (tell|let|provide|specify|confirm|give|choose|select|say)|let me know|tell me|could you|"
    r"would you|do you want|should i)\b",
    re.IGNORECASE,
)
_INFORMATION_REQUEST = re.compile(r"\bplease (tell|provide|specify|say|give me)\b|\blet me know\b", re.IGNORECASE)
_QUESTION_SENTENCE = re.compile(r"([^.!?]*)\?")
_WH_QUESTION = re.compile(
    r"\s*(?:(?:ok(?:ay)?|sure|great|alright|and|so|also)[,!]?\s+)*(?!what about|how about)"
    r"(what|which|where|when|who|whom|whose|how|why)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\w[\w'\u2019-]*")
_BOUNDARY = re.compile(r"[.!?:;\n]")
_NOT_NAMES = frozenset(
    [
        "I",
        "I'm",
        "I'll",
        "I've",
        "I'd",
        "It's",
        "The",
        "A",
        "An",
        "This",
        "That",
        "These",
        "Those",
        "There",
        "Here",
        "Yes",
        "No",
        "OK",
        "Okay",
        "Sure",
        "Please",
        "Thanks",
        "Thank",
        "Sorry",
        "Unfortunately",
        "Mr",
        "Mrs",
        "Ms",
        "Dr",
    ]
)


def _time_tokens(text: str) -> str:
    """Times of day in 24-hour ``HHMM`` form, so ``7 pm`` and ``19:00`` state the same number."""

    def twelve_hour(match: re.Match[str]) -> str:
        hour, minute = int(match[1]) % 12 + (12 if match[3].lower() == "p" else 0), int(match[2] or 0)
        return f" {hour * 100 + minute} "

    text = _TIME.sub(twelve_hour, text)
    return _CLOCK.sub(lambda m: f" {int(m[1]) * 100 + int(m[2])} ", text)


def numbers_in(text: str) -> Counter[float]:
    """The numbers a text states, as a multiset (see the module docstring)."""
    text = _time_tokens(alpha2digit(text, "en"))
    out: Counter[float] = Counter()
    for match in _NUMBER.finditer(text):
        digits = re.sub(r"(st|nd|rd|th)$", "", match.group()).replace(",", "")
        out[float(digits)] += 1
    return out


def polarity(text: str) -> str:
    """``negative`` when the text negates or reports a failure, else ``positive``."""
    folded = _NOT_NEGATIONS.sub(" ", text.casefold().replace("\u2019", "'"))
    words = set(_WORD.findall(folded))
    return "negative" if words & _NEGATIVE or any(w.endswith("n't") for w in words) else "positive"


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def words_in(text: str) -> set[str]:
    """The words of a text, case-folded, tokenised exactly as ``entities_in`` tokenises."""
    return {m.group().casefold() for m in _tokens(text)}


def entities_in(text: str) -> set[str]:
    """Capitalised words that are not sentence-initial (a cheap, deterministic proxy for names).

    Title-cased text (most words capitalised, as in headlines) has no usable signal: empty set.
    Every entity is one of ``words_in(text)``, so a text never names anything it does not mention.
    """
    tokens = _tokens(text)
    if tokens and sum(1 for m in tokens if m.group()[0].isupper()) > len(tokens) / 2:
        return set()
    out: set[str] = set()
    previous_end = 0
    for index, match in enumerate(tokens):
        word = match.group()
        sentence_start = index == 0 or bool(_BOUNDARY.search(text, previous_end, match.start()))
        previous_end = match.end()
        if word[0].isupper() and not sentence_start and word not in _NOT_NAMES:
            out.add(word.casefold())
    return out


def mentions(name: str, words: set[str]) -> bool:
    """Whether ``name`` or a word sharing its first four letters (``Syria``/``Syrian``) is in ``words``."""
    stem = name[:4]
    return name in words or any(w.startswith(stem) for w in words if len(w) >= 4)


def asks(text: str) -> bool:
    """Whether the text asks the user something."""
    return "?" in text or bool(_REQUESTS.search(text))


def requests_information(text: str) -> bool:
    """Whether the text asks the user *for information* (``Which region?``, ``Please tell me the date``).

    Offers and confirmations phrased as questions (``How about Delta?``, ``Would you like a table?``,
    ``Is that correct?``) are not information requests: a reply that states the offer instead says
    the same.
    """
    if _INFORMATION_REQUEST.search(text):
        return True
    return any(_WH_QUESTION.match(sentence) for sentence in _QUESTION_SENTENCE.findall(text))
