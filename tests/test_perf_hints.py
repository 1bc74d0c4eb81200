"""The cheap look before a reply-fact pattern runs (``reply_signals.SCANS``' hints) never skips a text it would match:
every match of a hinted pattern, in any case, holds one of its hints (issue 29: a speed-up that changes no fact)."""

from __future__ import annotations

import random

import pytest

from aem_strands.compare import reply_signals
from aem_strands.compare.reply_signals import facts_in

_WRITTEN = [
    "at 5 PM", "5 a m", "7 p.m.", "19:00", "half past 7", "10 to 6 in the morning", "5 past 7", "9 in the Evening",
    "12 at night", "Noon", "MIDNIGHT", "3 O'Clock", "half 5 in the afternoon", "quarter after 4",
    "out on the 6th.", "March 3", "3 Sept 2025", "3/4", "2025-03-01", "5 KG", "10 Km/H", "3 Stars", "6 ft",
    "42 Elm Street", "1532 20th St.", "99 Main Rd", "12 Sunset Blvd", "1 Camino Real", "5 °C", "70 Fahrenheit",
    "2455 Bennett Valley Rd", "Order ORDER_277630 is shipped.", "The train leaves at 3 pm on May 12 and costs $25.",
]  # fmt: skip
_ALPHABET = "0123456789 :-/.aApPmMtThHeEdDgGkKlLsSrRwWoOcCfF"
_WORDS = [
    "am", "p.m.", "pm", "o'clock", "past", "to", "after", "half", "quarter", "in the morning", "in the evening",
    "at night", "noon", "midnight", "of", "March", "sept", "the", "kg", "km/h", "miles per hour", "stars", "lbs",
    "Street", "St", "Rd", "Avenue", "Main", "Camino", "Real", "on the", "until the", "12th", "3rd", ":30", "/4",
    "hours", "Days", "working days", "min", "dollars", "USD", "Euros", "million", "k", "bucks",
]  # fmt: skip


def _cased(rng: random.Random, word: str) -> str:
    return "".join(ch.upper() if rng.random() < 0.3 else ch for ch in word)


def _texts() -> list[str]:
    rng = random.Random(0)
    made = ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 16))) for _ in range(2000)]
    for _ in range(4000):
        parts = [str(rng.randint(1, 2999)) if rng.random() < 0.4 else _cased(rng, rng.choice(_WORDS))
                 for _ in range(rng.randint(1, 5))]  # fmt: skip
        made.append(rng.choice([" ", "", "-"]).join(parts))
    return _WRITTEN + made


@pytest.mark.parametrize("name", ["_TIME", "_DATE", "_MEASURE", "_ADDRESS", "_DURATION", "_MONEY_AFTER"])
def test_every_match_holds_a_hint(name: str) -> None:
    pattern = getattr(reply_signals, name)
    scan = next(scan for scan in reply_signals.SCANS if scan.pattern is pattern)
    matched = 0
    for text in _texts():
        for match in pattern.finditer(text):
            matched += 1
            assert any(h in match.group().casefold() for h in scan.hints), (name, text, match.group())
            assert scan.gate is None or scan.gate.search(match.group()), (name, text, match.group())
    assert matched > 15  # the texts exercise the pattern (16 addresses at the least, seed 0)


def test_facts_of_written_times_dates_and_measures() -> None:
    # Hand-checked: each hinted reader still reads its value (the hint is there).
    assert [f.group for f in facts_in("We leave at 7 pm on March 3.")] == ["time", "date"]
    assert any(f.group == "measure" for f in facts_in("It weighs 5 KG."))
    assert any(f.group == "address" for f in facts_in("Send it to 42 Elm Street."))
    assert not [f for f in facts_in("ORDER_385538") if f.group in {"time", "date", "measure", "address"}]
