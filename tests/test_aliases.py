"""Two names of one entity: countries by name, short name, code and demonym; organisations by acronym."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from build_country_aliases import build_aliases
from hypothesis import given
from hypothesis import strategies as st

from aem_strands.compare.aliases import (
    ALIASES_FILE,
    CONNECTORS,
    country_key,
    entity_form,
    entity_relation,
    same_entity,
)
from aem_strands.compare.reply_signals import facts_in

SAME = [
    ("US", "U.S"),
    ("U.S.", "United States"),
    ("UK", "Britain"),
    ("UK", "British"),
    ("Afghan", "Afghanistan"),
    ("Syria", "Syrian"),
    ("Egypt", "Egyptian"),
    ("India's", "India"),
    ("India\u2019s", "India"),
    ("Zambian", "Zambia"),
    ("EU", "European Union"),
    ("UN", "United Nations"),
    ("IAEA", "International Atomic Energy Agency"),
    ("USA", "American"),
    ("the Netherlands", "Holland"),
    ("Trinidad & Tobago", "Trinidad and Tobago"),
]

DIFFERENT = [
    ("Syria", "Syrian Airlines"),
    ("Austria", "Australia"),
    ("Niger", "Nigeria"),
    ("Sudan", "South Sudan"),
    ("Guinea", "Papua New Guinea"),
    ("Dominica", "Dominican Republic"),
    ("Korea", "North Korea"),
    ("Congo", "DR Congo"),
    ("US", "Union Station"),  # a country's code is the country, never an acronym of something else
    ("IN", "India"),  # two-letter codes that are English words
    ("IT", "Italy"),
    ("TO", "Tonga"),
    ("ME", "Montenegro"),
    ("CA", "Canada"),  # California's code first
    ("Congolese", "Republic of the Congo"),  # a demonym two countries share names neither
    ("UN", "European Union"),
    ("Grand Central Station", "GCT"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_names_of_one_entity_are_the_same_either_way(a: str, b: str) -> None:
    assert same_entity(a, b)
    assert same_entity(b, a)


@pytest.mark.parametrize(("a", "b"), SAME)
def test_the_case_folded_keys_the_reply_reader_gives_compare_alike(a: str, b: str) -> None:
    assert same_entity(a.casefold(), b.casefold())


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_names_of_different_entities_differ_either_way(a: str, b: str) -> None:
    assert not same_entity(a, b)
    assert not same_entity(b, a)


@pytest.mark.parametrize(
    ("a", "b", "relation"),
    [
        ("U.S.", "United States", True),
        ("IAEA", "International Atomic Energy Agency", True),
        ("Sudan", "South Sudan", False),  # both countries
        ("Korea", "North Korea", False),  # a country's whole name and part of it
        ("France", "Paris, France", False),
        ("Syria", "Syrian Airlines", False),
        ("Pleasant Hill", "Pleasant Hill, CA", None),  # no country: left to the caller's word overlap
        ("Kenya SC", "Kenya Supreme Court", None),
    ],
)
def test_entity_relation_decides_where_a_country_is_named(a: str, b: str, relation: bool | None) -> None:
    assert entity_relation(a, b) is relation
    assert entity_relation(b, a) is relation


def test_entity_facts_from_replies_are_compared_by_their_keys() -> None:
    written = [f.key for f in facts_in("The U.S said so.") if f.group == "entity"]
    assert written == ["u.s"]
    assert same_entity(written[0], "united states")


@pytest.mark.parametrize(
    ("text", "code"),
    [("U.S.", "USA"), ("America", "USA"), ("British", "GBR"), ("UAE", "ARE"), ("Afghan", "AFG"), ("DR Congo", "COD")],
)
def test_country_key_is_the_alpha_3_code(text: str, code: str) -> None:
    assert country_key(text) == code


@pytest.mark.parametrize("text", ["Syrian Airlines", "Korea", "Dominican Republic Airlines", "IT", "Union Station"])
def test_country_key_is_none_for_what_names_no_single_country(text: str) -> None:
    assert country_key(text) is None


def test_entity_form_sets_aside_case_possessives_dots_and_a_leading_the() -> None:
    assert entity_form("The U.S.'s") == "us"
    assert entity_form("Côte d\u2019Ivoire") == "cote d'ivoire"
    assert entity_form("St. Lucia") == "st lucia"


def test_the_shipped_table_is_what_countryinfo_gives() -> None:
    """Names only: a new patch release of a package the table records need not change them."""
    shipped = json.loads(resources.files("aem_strands.compare").joinpath("data").joinpath(ALIASES_FILE).read_text())
    assert shipped["aliases"] == build_aliases()["aliases"]


_TABLE: dict[str, str] = build_aliases()["aliases"]
_NAMES = sorted(_TABLE)
_WORDS = sorted({w for name in _NAMES for w in name.split() if w not in CONNECTORS and len(w) > 2})

texts = st.text(max_size=40)
names = st.sampled_from(_NAMES)


@given(texts)
def test_any_text_is_the_same_entity_as_itself(text: str) -> None:
    assert same_entity(text, text)


@given(texts | names, texts | names)
def test_same_entity_is_symmetric(a: str, b: str) -> None:
    assert same_entity(a, b) == same_entity(b, a)


@given(names, names)
def test_names_of_different_countries_never_agree(a: str, b: str) -> None:
    assert same_entity(a, b) == (_TABLE[a] == _TABLE[b])


@given(names, st.sampled_from(_WORDS), st.booleans())
def test_a_name_with_a_word_more_is_another_entity_unless_it_names_the_same_country(
    name: str, word: str, before: bool
) -> None:
    longer = f"{word} {name}" if before else f"{name} {word}"
    key = country_key(longer)
    assert same_entity(name, longer) == (key is not None and key == _TABLE[name])
