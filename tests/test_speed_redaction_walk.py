"""Issue 29: ``Redactor.redact_json`` redacts the plain items of an object or list without reading their key; what
it gives is what the walk that reads every value under its key gives (the same tokens, in the same order)."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.trace.pii import Redactor, SensitiveKind
from aem_strands.trace.redaction.recognizers import CARD_DIGITS, card_named_by_key
from aem_strands.types import JsonValue

_CARD_FROM = 10 ** (CARD_DIGITS - 1)


def _walked(redactor: Redactor, value: JsonValue, key: str = "") -> JsonValue:
    """Every value read under its key (the reference)."""
    if isinstance(value, str):
        if len(value) >= CARD_DIGITS and card_named_by_key(key, value):
            return redactor.token(SensitiveKind.CARD, value)
        return redactor.redact(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int) and value >= _CARD_FROM and card_named_by_key(key, str(value)):
        return redactor.token(SensitiveKind.CARD, str(value))
    if isinstance(value, (int, float)):
        if abs(value) < 10**6 or (isinstance(value, float) and not value.is_integer()):
            return value
        text = str(int(value))
        redacted = redactor.redact(text)
        return value if redacted == text else redacted
    if isinstance(value, Mapping):
        return {redactor.redact(str(k)): _walked(redactor, v, f"{key}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_walked(redactor, v, key) for v in value]
    return value


_KEYS = st.sampled_from(["payment_card", "number", "visa", "note", "library_card", "jane@example.com"])
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, 999_999, -999_999, 1_000_000, -4_111_111_111_111_111, 4_929_118_055_230_147, 2.5, 1e7]),
    st.sampled_from(
        [
            "",
            "ok",
            "4929118055230147",
            " 4929 1180 5523 0147",
            "4929-1180-5523-0147 ",
            "call 415 555 2671 now",
            "jane@example.com",
            "a long plain sentence",
            "\u00a04929118055230147",
            "<EMAIL_1> was typed",
        ]
    ),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=3)),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_JSON, min_size=1, max_size=3))
def test_redact_json_gives_what_reading_every_value_under_its_key_gives(values: list[JsonValue]) -> None:
    fast, plain = Redactor(), Redactor()
    for value in values:
        assert fast.redact_json(value) == _walked(plain, value)


def test_a_card_under_a_key_naming_a_card_is_a_card_in_a_list_too() -> None:
    # 4929 1180 5523 0141 fails the checksum: a card by its key only (``payment_card``), also as a list's item,
    # and an integer; under ``note`` it stays as written.
    redactor = Redactor()
    record: JsonValue = {"payment_card": ["4929 1180 5523 0141", 4929118055230141], "note": "4929 1180 5523 0141"}
    assert redactor.redact_json(record) == {"payment_card": ["<CARD_1>", "<CARD_1>"], "note": "4929 1180 5523 0141"}
