"""The kinds of sensitive value a policy names, and the form under which two writings of a value are one value."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import Enum


class SensitiveKind(str, Enum):
    """The kinds of sensitive value, as a policy names them (``SensitiveDataRule``)."""

    CARD = "card"
    IBAN = "iban"
    GOVERNMENT_ID = "government_id"
    """A national identity or tax number of a country Presidio has a recognizer for (US SSN and ITIN, UK national
    insurance number, Canada SIN, Spain NIF/NIE, Italy fiscal code, India Aadhaar and PAN, ...)."""
    SECRET = "secret"
    PIN = "pin"
    """A number the text names as a PIN ("PIN 4821")."""
    OTP = "otp"
    """A one-time or verification code the text names as such ("code 482913", "OTP: 551204")."""
    EMAIL = "email"
    PHONE = "phone"
    ADDRESS = "address"


NEVER_ECHO: frozenset[SensitiveKind] = frozenset(
    {
        SensitiveKind.CARD,
        SensitiveKind.IBAN,
        SensitiveKind.GOVERNMENT_ID,
        SensitiveKind.SECRET,
        SensitiveKind.PIN,
        SensitiveKind.OTP,
    }
)
"""Kinds a reply must not repeat even when the user gave the value themself."""

_DIGITS_ONLY = frozenset({SensitiveKind.CARD, SensitiveKind.GOVERNMENT_ID, SensitiveKind.PIN, SensitiveKind.OTP})
_TRAILING_PUNCTUATION = re.compile(r"[\s.,;:!?]+$")


@functools.lru_cache(maxsize=4096)
def _phone_key(value: str) -> str:
    import phonenumbers

    digits = "".join(ch for ch in value if ch.isdigit())
    try:
        number = phonenumbers.parse(value, "US")
    except phonenumbers.NumberParseException:
        return digits or value
    # The national number with its country code: ``+1 415 555 2671`` and ``415 555 2671`` (read in the US) are one.
    return f"+{number.country_code}{number.national_number}"


def normalised_value(kind: SensitiveKind, value: str) -> str:
    """The form under which two writings of a value are the same value: digits only for cards, ids, PINs and
    codes (``4111 1111 1111 1111`` is ``4111-1111-1111-1111``), the country code and national number for phones
    (``+1 415 555 2671`` is ``415 555 2671``), letters and digits upper-cased for IBANs, case-folded with the
    spacing and a closing full stop or comma dropped for e-mail and addresses (``42 Elm Street.`` is ``42 Elm
    Street,``)."""
    if kind in _DIGITS_ONLY:
        digits = "".join(ch for ch in value if ch.isdigit())
        if kind is not SensitiveKind.GOVERNMENT_ID or digits == "".join(ch for ch in value if ch.isalnum()):
            return digits or value
        return "".join(ch for ch in value if ch.isalnum()).upper()
    if kind is SensitiveKind.PHONE:
        return _phone_key(value)
    if kind is SensitiveKind.IBAN:
        return "".join(ch for ch in value if ch.isalnum()).upper()
    if kind in (SensitiveKind.EMAIL, SensitiveKind.ADDRESS):
        return _TRAILING_PUNCTUATION.sub("", " ".join(value.casefold().split()))
    return value


@dataclass(frozen=True)
class SensitiveSpan:
    """One sensitive value found in a text: its kind and where it is (``text[start:end] == value``)."""

    kind: SensitiveKind
    start: int
    end: int
    value: str
