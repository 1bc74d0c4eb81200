"""Issue 29, "Redaction that does not leak" and the bank-data bullet: each writing a trace holds is detected, by the
kept libraries' recognizers (Presidio, detect-secrets), and redacted; what only looks like one (a timestamp, a UUID,
a hash, web-page metadata, a prose word after ``password:``) is left alone."""

from __future__ import annotations

import pytest

from aem_strands.trace.pii import Redactor, SensitiveKind, find_sensitive

KEY = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDxq3u5pK8VbVwJvJb2nQ9Hc7yZrT4mLxW0aF3sGdE1hAAAAJgAAAAA\n"
    "-----END OPENSSH PRIVATE KEY-----"
)


def _found(text: str) -> list[tuple[SensitiveKind, str]]:
    return [(s.kind, s.value) for s in find_sensitive(text)]


def test_a_whole_private_key_block_is_one_secret() -> None:
    text = f"Here is the deploy key:\n{KEY}\nKeep it safe."
    assert _found(text) == [(SensitiveKind.SECRET, KEY)]  # BEGIN line, body and END line: one span
    redacted = Redactor().redact(text)
    assert redacted == "Here is the deploy key:\n<SECRET_1>\nKeep it safe."
    assert "b3Bl" not in redacted
    assert "END OPENSSH" not in redacted


def test_a_key_block_cut_short_is_a_secret_up_to_the_end_of_its_text() -> None:
    cut = KEY.rsplit("\n", 1)[0]  # no END line: the body is still the key's
    assert _found(f"key: {cut}") == [(SensitiveKind.SECRET, cut)]


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("card 4111.1111.1111.1111 on file", SensitiveKind.CARD, "4111.1111.1111.1111"),
        ("card 4111\u00a01111\u00a01111\u00a01111 on file", SensitiveKind.CARD, "4111\u00a01111\u00a01111\u00a01111"),
        ("card 4111/1111/1111/1111 on file", SensitiveKind.CARD, "4111/1111/1111/1111"),
        ("Mastercard 2223 0031 2200 3222 charged", SensitiveKind.CARD, "2223 0031 2200 3222"),
        ("pay to DE89 3704 0044 0532 0130 00 today", SensitiveKind.IBAN, "DE89 3704 0044 0532 0130 00"),
        ("IBAN GB82WEST12345698765432.", SensitiveKind.IBAN, "GB82WEST12345698765432"),
        ("/unsubscribe?email=jane.doe%40example.com&x=1", SensitiveKind.EMAIL, "jane.doe%40example.com"),
        ("trace jane@example.com-run", SensitiveKind.EMAIL, "jane@example.com-run"),  # an id going on after it
        ("dsn postgres://app:s3cr3tPass@db.internal:5432/shop", SensitiveKind.SECRET, "s3cr3tPass"),
        ("password: hunter2", SensitiveKind.SECRET, "hunter2"),
        ("db_password = Tr0ub4dor&3", SensitiveKind.SECRET, "Tr0ub4dor&3"),
        ("SSN 536228710 on the form", SensitiveKind.GOVERNMENT_ID, "536228710"),
        ("Authorization: Bearer 9f86d081884c7d659a2feaa0c55ad015", SensitiveKind.SECRET,
         "9f86d081884c7d659a2feaa0c55ad015"),
        ("Your PIN 4821 is set", SensitiveKind.PIN, "4821"),
        ("Your code 482913 expires in 5 minutes", SensitiveKind.OTP, "482913"),
        ("the one-time passcode is 551204", SensitiveKind.OTP, "551204"),
        ("NI number AB 12 34 56 C", SensitiveKind.GOVERNMENT_ID, "AB 12 34 56 C"),
        ("NINO AB123456C", SensitiveKind.GOVERNMENT_ID, "AB123456C"),
        ("NIF 12345678Z", SensitiveKind.GOVERNMENT_ID, "12345678Z"),  # Spain (Presidio's EsNifRecognizer)
        ("PESEL 44051401359", SensitiveKind.GOVERNMENT_ID, "44051401359"),  # Poland
        ("Aadhaar 2345 6789 0124", SensitiveKind.GOVERNMENT_ID, "2345 6789 0124"),  # India
        ("call me on +1 199 555 0100", SensitiveKind.PHONE, "+1 199 555 0100"),  # invalid (no area code 199)
    ],
)  # fmt: skip
def test_each_writing_is_detected_and_redacted(text: str, kind: SensitiveKind, value: str) -> None:
    assert _found(text) == [(kind, value)]
    redacted = Redactor().redact(text)
    assert value not in redacted
    assert f"<{kind.name}_1>" in redacted


@pytest.mark.parametrize(
    "text",
    [
        "card 4111.1111.1111.1112 on file",  # fails Luhn, dots or not
        "IBAN DE89 3704 0044 0532 0130 01",  # fails the IBAN check digits
        "order 536228710 shipped",  # nine digits with no SSN context: Presidio's 'very weak' pattern only
        "error code 4031 from the gateway",  # a code that no label makes a one-time code
        "zip code 94110",
        "Reset your password: click the link we sent",  # a prose word after the keyword
        "order total +1 199 555 0100",  # an invalid number with no phone context
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
    ],
)
def test_what_only_looks_like_a_value_is_left_alone(text: str) -> None:
    assert _found(text) == []


def test_a_bearer_token_is_one_secret_and_no_part_of_it_a_phone() -> None:
    text = "Authorization: Bearer 9f86d081884c7d6590123456789feaa0"
    redacted = Redactor().redact(text)
    assert redacted == "Authorization: Bearer <SECRET_1>"
    assert "PHONE" not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "trace run-2025-08-10T02:44:06.123Z-7731 done",  # a timestamp in a trace id
        "2025-08-10T02:44:06+02:00",
        "session 123e4567-e89b-12d3-a456-426614174000",  # a UUID
        "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",  # a hash
        '<meta property="og:image" content="https://cdn.example.com/i/Zx9qL2mN8vB4cR7tY1uI3oP6aS5dF0gH/hero.png">',
        '<script src="/app.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ],
)
def test_timestamps_uuids_hashes_and_page_metadata_are_no_phone_and_no_secret(text: str) -> None:
    assert _found(text) == []
    assert Redactor().redact(text) == text


def test_a_random_key_without_a_known_prefix_is_a_secret_by_entropy() -> None:
    # 34 distinct characters: log2(34) = 5.09 bits a character > detect-secrets' base64 limit of 4.5
    assert _found("key Zx9qL2mN8vB4cR7tY1uI3oP6aS5dF0gHjK") == [
        (SensitiveKind.SECRET, "Zx9qL2mN8vB4cR7tY1uI3oP6aS5dF0gHjK")
    ]
    # the same length of snake_case words: about 3.9 bits a character, under the limit
    assert _found("name customer_refund_status_lookup_v2") == []
