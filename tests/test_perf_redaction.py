"""A redactor remembers each text it redacted (issue 29: records repeat their keys, ids and replies, and each
distinct text is scanned once a run): remembering changes no output, whatever it forgets and when."""

from __future__ import annotations

import pytest

from aem_strands.trace.redaction import redactor as redactor_module
from aem_strands.trace.redaction.redactor import Redactor

_TEXTS = [
    "Call me at +1 415 555 2671 or write to jane.doe@example.com.",
    "step_id",
    "Card 4111 1111 1111 1111 on file; call 415 555 2671.",
    "a literal <EMAIL_1> typed by the user, and bob@example.org",
    "Call me at +1 415 555 2671 or write to jane.doe@example.com.",
    "nothing sensitive here",
    "Card 4111 1111 1111 1111 on file; call 415 555 2671.",
    "bob@example.org again",
]


def _run(texts: list[str]) -> list[str]:
    redactor = Redactor()
    return [redactor.redact(t) for t in texts]


def test_a_text_redacted_again_gives_the_same_tokens() -> None:
    out = _run(_TEXTS)
    assert out[0] == out[4]
    assert out[2] == out[6]
    assert "<EMAIL_1>" in out[0]
    assert "jane" not in out[0]
    # the literal token of the input is set apart; the real address after it gets a token of its own
    assert "\u2039EMAIL_1\u203a" in out[3]
    assert "<EMAIL_2>" in out[3]
    assert out[7] == "<EMAIL_2> again"


@pytest.mark.parametrize("bound", [1, 40, 200])
def test_forgetting_changes_nothing(monkeypatch: pytest.MonkeyPatch, bound: int) -> None:
    expected = _run(_TEXTS * 3)
    monkeypatch.setattr(redactor_module, "_MEMO_CHARS", bound)  # forget after every text, or every few
    assert _run(_TEXTS * 3) == expected


def test_json_keys_and_values_share_what_is_remembered() -> None:
    redactor = Redactor()
    record = {"jane.doe@example.com": ["jane.doe@example.com", {"n": 4111111111111111}], "k": "ok"}
    first = redactor.redact_json(record)
    assert first == {"<EMAIL_1>": ["<EMAIL_1>", {"n": "<CARD_1>"}], "k": "ok"}
    assert redactor.redact_json(record) == first


def test_a_value_uncovered_by_replacing_a_known_one_is_redacted_too() -> None:
    # "+1 415 555 2671 2223 ..." reads as one run of digits: only the second phone number is found at first;
    # replacing the first where it stands uncovers the 2-series card number, which must not stay in clear
    text = "+1 415 555 2671 2223 0031 2200 3222 +1 415 555 2671"
    assert Redactor().redact(text) == "<PHONE_1> <CARD_1> <PHONE_1>"


def test_a_value_repeated_with_nothing_behind_it_keeps_one_token() -> None:
    assert Redactor().redact("call +1 415 555 2671, or +1 415 555 2671 again") == "call <PHONE_1>, or <PHONE_1> again"
