"""Finding the sensitive values of a text: every recognizer over the text once, the overlaps settled, the result
remembered per text (the same value comes back in replies, arguments and evidence).

The recognizers: Presidio's (cards, IBANs, national ids, e-mail addresses, phone numbers;
``aem_strands.trace.redaction.recognizers``), ``detect-secrets``' (``aem_strands.trace.redaction.secrets``), and two
of ours where no kept library has one: a PIN or one-time code by its label ("PIN 4821", "verification code 482913")
and a street address (a house number, up to four words, a street suffix). A value inside a timestamp, a UUID or a
hex digest is none of these: a trace id such as ``run-2025-08-10T02:44:06`` keeps its digits.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from aem_strands.trace.redaction.kinds import SensitiveKind, SensitiveSpan
from aem_strands.trace.redaction.recognizers import clear_caches as _clear_phone_runs
from aem_strands.trace.redaction.recognizers import holds_number, phone_spans, presidio_spans
from aem_strands.trace.redaction.secrets import secret_spans

PRECEDENCE: tuple[SensitiveKind, ...] = (
    SensitiveKind.SECRET,
    SensitiveKind.CARD,
    SensitiveKind.IBAN,
    SensitiveKind.GOVERNMENT_ID,
    SensitiveKind.EMAIL,
    SensitiveKind.PIN,
    SensitiveKind.OTP,
    SensitiveKind.PHONE,
    SensitiveKind.ADDRESS,
)
"""Where two detections overlap, the earlier kind wins (a card number also reads as a phone number); within a kind
the longer span."""
_RANK = {kind: rank for rank, kind in enumerate(PRECEDENCE)}

_STREET_SUFFIX = (
    r"(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|ter|"
    r"circle|cir|parkway|pkwy|highway|hwy|square|sq)"
)
_ADDRESS = re.compile(
    r"\b\d{1,6}[A-Za-z]?\s+(?:[A-Za-z][A-Za-z'\-]*\.?\s+){1,4}" + _STREET_SUFFIX + r"\b"
    r"(?:\.?,?\s+(?:apt|apartment|suite|ste|unit)\.?\s*#?\w+)?",
    re.IGNORECASE,
)
_CODE_LABEL = re.compile(
    r"\b(?:(?P<pin>PIN(?:\s+(?:code|number))?)|(?P<otp>OTP|one[- ]time\s+(?:pass)?(?:code|password)|"
    r"(?:verification|security|confirmation|auth(?:entication)?|login|2fa|sms|access)\s+code|passcode|code))"
    r"(?:\s+(?:is|was))?\s*[:#=]?\s*(?P<value>\d{4,8})\b",
    re.IGNORECASE,
)
_NOT_A_CODE = re.compile(r"(?:error|status|zip|postal|area|country|product|promo|discount|sort|http|exit|item)\W*$",
                         re.IGNORECASE)  # fmt: skip
"""Numbers a ``code`` label names that are no one-time code: ``error code 4031``, ``zip code 94110``."""
_NO_VALUE_INSIDE = re.compile(
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d[0-9:.,]*(?:Z|[+-]\d\d:?\d\d)?"  # ISO timestamp
    r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # UUID
    r"|(?<![0-9a-z])[0-9a-f]{32,}(?![0-9a-z])",  # hex digest (MD5 and longer)
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d(?:\D{0,3}\d){3}")
_HOUSE = r"\b\d{1,6}[A-Za-z]?\s+[A-Za-z]"
"""What an address needs: a house number before a word."""
_HOUSE_GATE = re.compile(_HOUSE)
_CODE_GATE = re.compile(r"pin|otp|code", re.IGNORECASE)
_NEEDS = re.compile(
    r"@|%40|-----BEGIN|://|pass|pwd|secret|key|contrase|[A-Za-z0-9+/_\-]{20}|" + _DIGITS.pattern + "|" + _HOUSE,
    re.IGNORECASE,
)
"""What some recognizer needs in a text: an at-sign (e-mail), a key block, a URL, a secret's keyword or a long
token (secrets), four digits with at most three characters between each (cards, IBANs, ids, phones, PINs and codes),
or a house number before a word (addresses). A text without any (a step id, a small number) is skipped unread."""


def _labelled_codes(text: str) -> Iterator[SensitiveSpan]:
    for match in _CODE_LABEL.finditer(text):
        if match.group("otp") and match.group("otp").lower() == "code" and _NOT_A_CODE.search(text[: match.start()]):
            continue
        kind = SensitiveKind.PIN if match.group("pin") else SensitiveKind.OTP
        yield SensitiveSpan(kind, match.start("value"), match.end("value"), match.group("value"))


def _addresses(text: str) -> Iterator[SensitiveSpan]:
    for match in _ADDRESS.finditer(text):
        # An abbreviated suffix keeps its full stop (``St.``); a sentence's full stop after ``Street`` is not the
        # address's, so ``42 Elm Street.`` and ``42 Elm Street,`` are one value.
        end = match.end()
        if end < len(text) and text[end] == "." and len(match.group().split()[-1]) <= 4:
            end += 1
        yield SensitiveSpan(SensitiveKind.ADDRESS, match.start(), end, text[match.start() : end])


def _candidates(text: str) -> Iterator[SensitiveSpan]:
    digits = bool(_DIGITS.search(text))
    yield from secret_spans(text)
    number = digits and holds_number(text)
    yield from presidio_spans(text, number)
    if number:
        yield from phone_spans(text)
    if digits and _CODE_GATE.search(text):
        yield from _labelled_codes(text)
    if _HOUSE_GATE.search(text):
        yield from _addresses(text)


@functools.lru_cache(maxsize=8192)
def scan(text: str) -> tuple[SensitiveSpan, ...]:
    """The sensitive values of ``text`` (see ``find_sensitive``), remembered per text."""
    found = list(_candidates(text))
    if not found:
        return ()
    shielded = [m.span() for m in _NO_VALUE_INSIDE.finditer(text)]
    candidates = sorted(
        (
            span
            for span in found
            if span.kind is SensitiveKind.SECRET or all(span.end <= a or span.start >= b for a, b in shielded)
        ),
        key=lambda s: (_RANK[s.kind], -(s.end - s.start), s.start),
    )
    kept: list[SensitiveSpan] = []
    for span in candidates:
        if span.end > span.start and all(span.end <= k.start or span.start >= k.end for k in kept):
            kept.append(span)
    return tuple(sorted(kept, key=lambda s: s.start))


def may_hold_sensitive(text: str) -> bool:
    """False when no recognizer could find anything in ``text`` (see ``_NEEDS``)."""
    return bool(text) and bool(_NEEDS.search(text))


def find_sensitive(text: str) -> list[SensitiveSpan]:
    """The sensitive values in ``text``, in order of position, not overlapping (see ``PRECEDENCE``)."""
    if not may_hold_sensitive(text):
        return []
    return list(scan(text))


def clear_caches() -> None:
    """Forget every remembered scan (for benchmarks that time scanning afresh); detection is unchanged."""
    scan.cache_clear()
    _clear_phone_runs()
