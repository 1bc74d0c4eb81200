"""Judging one reply pair before any model: facts, acts, then what the semantic stage must decide.

``settle_reply`` is the deterministic reply stage of the comparison chain (``chain.Comparator``
calls it for every reply pair that exact match and typed normalisation left open):

- a contradicted or omitted fact, or a request for other information, settles the pair as **not
  equivalent** (``method: facts``; the detail names both facts: ``7 am vs gold 7 pm``);
- two requests for the same information settle it as **equivalent** (``asks for the same
  information (date:departure)``); so do two replies made of the same content-free dialog acts
  (success, failure, ``Anything else?``, goodbye, an offer of the same action) whose facts all
  agree (``both confirm success (notify_success); facts agree: 7 pm``); so do two statements or
  offers (``acts.stating_acts``) whose stated facts all agree both ways, with the same state words
  and negations and at most a few other content words differing (``both state the same facts
  (inform); facts agree: 27 percent; other words differ: air, level, vapor, water (4 <= 5)``);
- anything else is left to the semantic scorer; ``explain_pass`` then adds the facts both replies
  state to the scorer's reason, so a passing reply can be audited.

Turn judging (``checks``) reads the same ``check_reply_facts`` result, so ``compare`` and ``score``
give one verdict on one pair.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import replace

from aem_strands.compare.acts import ActKind, agreeing_acts, dialog_act, stated_facts, stating_acts
from aem_strands.compare.facts import FactCheck, check_reply_facts, needs_parse, pending_parses
from aem_strands.compare.reply_signals import Fact, content_words, facts_in, negates, words_in
from aem_strands.compare.reply_words import GOVERNED_SKIP, HEDGES, stem
from aem_strands.compare.roles import describe_relations, parse_many, same_relations
from aem_strands.compare.scopes import scopes_in
from aem_strands.types import Comparison, Method, ValueKind

Pair = tuple[str, str]


def settle_replies(pairs: Iterable[Pair]) -> dict[Pair, Comparison]:
    """``settle_reply`` for many pairs: the pairs it settles, with their comparisons."""
    pairs = list(pairs)
    parse_many(pending_parses(pairs))  # the pairs the role check will parse, parsed in one batch
    out: dict[Pair, Comparison] = {}
    for pair in pairs:
        settled = settle_reply(*pair)
        if settled is not None:
            out[pair] = settled
    return out


def explain_passes(decided: dict[Pair, Comparison], scorer: object = None) -> dict[Pair, Comparison]:
    """``explain_pass`` for every decided pair; a scorer offering ``describe(pair, kind)`` (the
    embedding scorer: what its reply score was made of) adds that to the reasons it gave."""
    describe = getattr(scorer, "describe", None)
    out: dict[Pair, Comparison] = {}
    for pair, comparison in decided.items():
        made_of = ""
        if comparison.method is Method.EMBEDDING and callable(describe):  # only pairs the scorer embedded
            made_of = describe(pair, ValueKind.RESPONSE)
        if made_of:
            comparison = replace(comparison, detail=f"{comparison.detail} ({made_of})")
        out[pair] = explain_pass(pair[0], pair[1], comparison)
    return out


@functools.lru_cache(maxsize=1 << 14)
def settle_reply(gold: str, predicted: str) -> Comparison | None:
    """The facts-and-acts verdict on a reply pair, or ``None`` when the semantic stage must decide."""
    check = check_reply_facts(gold, predicted)
    if check.findings:
        return Comparison(False, 0.0, Method.FACTS, "facts: " + "; ".join(f.detail for f in check.findings))
    if negates(gold) != negates(predicted) or _scopes(gold) != _scopes(predicted) or _reordered(gold, predicted):
        return None  # a denial, a scope word or an order of values on one side only: no pass is sure
    agreed = _agreed(check.matched)
    if check.same_request:
        topics = ", ".join(sorted(dialog_act(gold).requests))
        return Comparison(True, 1.0, Method.FACTS, f"asks for the same information ({topics}){agreed}")
    kinds = agreeing_acts(gold, predicted)
    if kinds is not None and len(stated_facts(gold)) == len(stated_facts(predicted)) == len(check.matched):
        intents = dialog_act(gold).intents
        what = " and ".join(_ACT_WORDS[k].format(intent="/".join(sorted(intents))) for k in sorted(kinds))
        return Comparison(True, 1.0, Method.FACTS, f"both {what} ({', '.join(sorted(kinds))}){agreed}")
    settled = _same_statement(gold, predicted, check)
    if settled is None and needs_parse(gold, predicted) and same_relations(gold, predicted):
        relations = describe_relations(gold)
        return Comparison(True, 1.0, Method.FACTS, f"both state the same relations: {relations}{agreed}")
    return settled


def _scopes(text: str) -> frozenset[str]:
    """The scope classes of a text that may change what it claims (``also`` only adds to it)."""
    return scopes_in(text) - {"also"}


def _reordered(gold: str, predicted: str) -> bool:
    """Whether two times or dates come in the other order on the two sides (``from 8 am to 11:30 am`` /
    ``from 11:30 am to 8 am``), each stated once on each side; names count only where a ``from`` or a
    ``between`` may give them roles (a list of films in another order says the same)."""
    mine, theirs = facts_in(gold), facts_in(predicted)
    groups = {f.group for f in mine} & {f.group for f in theirs}
    roles = "entity" in groups and (
        _ORDERED_NAMES.search(gold) is not None or _ORDERED_NAMES.search(predicted) is not None
    )
    for group in groups:
        if group not in _ORDERED_GROUPS and not (group == "entity" and roles):
            continue  # counts and amounts in another order say the same (``_swapped_counts`` binds them)
        keys, other_keys = [f.key for f in mine if f.group == group], [f.key for f in theirs if f.group == group]
        shared = [k for k in keys if keys.count(k) == 1 and other_keys.count(k) == 1]
        if len(shared) > 1 and sorted(shared, key=other_keys.index) != shared:
            return True
    return False


_ORDERED_GROUPS = frozenset(["time", "date", "weekday", "month"])
_ORDERED_NAMES = re.compile(r"\b(?:from|between|origin|destination|departs?|departing)\b", re.IGNORECASE)


WORD_SLACK = 1
"""How many content words (outside the facts) may differ between two statements whose facts agree
and are only plain numbers (``2 of them.`` / ``2 of them, by the sea.``)."""
NAMED_WORD_SLACK = 2
"""The same when a fact is a name (``They are located at 2455 Bennett Valley Road.`` / ``They're at
2455 Bennett Valley Road.``)."""
TYPED_WORD_SLACK = 5
"""The same when a fact has a type beyond a name or a number (a date, time, amount, percentage ...):
such a value carries the message (``Around 27 percent.`` / ``The water vapor level expected in the air
is 27 percent.``). The three limits were chosen on the SGD calibration pairs and STS-B calibration
rows: wider ones let STS-B pairs that share a count or a name but not their meaning pass (``Two dogs
in the snow`` / ``Two dogs play in the grass.``; ``Nelson Mandela taken to hospital`` / ``Nelson
Mandela released from hospital``)."""


def _same_statement(gold: str, predicted: str, check: FactCheck) -> Comparison | None:
    """Two statements (or offers) whose stated facts all agree both ways, with the same state words
    and negations, and few other content words differing, are equivalent; ``None`` otherwise."""
    kinds = stating_acts(gold, predicted)
    if kinds is None:
        return None
    facts, other = stated_facts(gold), stated_facts(predicted)
    if not facts or _polar(gold) != _polar(predicted):
        return None
    typed = any(f.group not in ("number", "entity") for f in facts + other)
    named = any(f.group == "entity" for f in facts)
    mine, theirs = _other_words(gold, facts), _other_words(predicted, other)
    differing = sorted(mine ^ theirs)
    slack = TYPED_WORD_SLACK if typed else NAMED_WORD_SLACK if named else WORD_SLACK
    roles, other_roles = words_in(gold) & _ROLE_WORDS, words_in(predicted) & _ROLE_WORDS
    if len(differing) > slack or _opposed_roles(roles - other_roles, other_roles - roles):
        return None
    # both ways: gold's facts all found in the prediction (``check``), and the prediction's in gold (the
    # costliest test, so the last)
    if check_reply_facts(predicted, gold).findings:
        return None
    words = (
        f"other words differ: {', '.join(differing)} ({len(differing)} <= {slack})"
        if differing
        else "no other word differs"
    )
    return Comparison(
        True,
        1.0,
        Method.FACTS,
        f"both state the same facts ({', '.join(sorted(kinds))}){_agreed(check.matched)}; {words}",
    )


def _polar(text: str) -> frozenset[tuple[str, str]]:
    """The state words and negations of a text, by their meaning (but for ``ONE_SIDED_STATES``)."""
    return frozenset(
        (f.group, f.key)
        for f in facts_in(text)
        if f.group.startswith(("state:", "negation")) and f.group not in ONE_SIDED_STATES
    )


SOURCE_WORDS = frozenset(
    stem(w)
    for w in ["from", "origin", "depart", "departure", "leave", "leaving", "pickup", "checkin", "outbound", "sender"]
)
TARGET_WORDS = frozenset(
    stem(w)
    for w in ["to", "destination", "arrive", "arrival", "return", "back", "drop", "checkout", "inbound", "recipient"]
)
"""Words that give a value the role of a source or of a target (``From Fresno Station.`` / ``The
destination is Fresno Station.``; ``runs to`` / ``runs from``): one side naming a source where the other
names a target, each word on one side only, leaves the pair to the semantic stage, whatever the slack."""


_ROLE_WORDS = SOURCE_WORDS | TARGET_WORDS


def _opposed_roles(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    return bool((mine & SOURCE_WORDS and theirs & TARGET_WORDS) or (mine & TARGET_WORDS and theirs & SOURCE_WORDS))


ONE_SIDED_STATES = frozenset(
    ["state:arrival", "state:outcome", "state:quality", "state:availability", "state:permission", "state:genre"]
)
"""State groups one statement may name and the other not (``Will you be leaving on March 5th?`` /
``Are you travelling on March 5th?``; ``a good restaurant`` / ``a nice restaurant``; a genre word
that is also a verb, ``Two blasts rock Syrian capital``): they add a shade, not a value. Opposite
poles on the two sides still fail (``states``); success itself is a claim both must make
(``acts.CLAIMS``). Negations, directions, inclusion, switches, days and weather must be the same on
both sides."""


_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_NOT_CONTENT = GOVERNED_SKIP | HEDGES | {"by", "with", "how", "its", "there's", "here's", "that's", "what's"}


def _other_words(text: str, facts: list[Fact]) -> set[str]:
    """The content-word stems of ``text`` (number words read as digits) outside its ``facts`` and its
    state words (``_polar`` judges those), hedges left out."""
    states = [f for f in facts_in(text) if f.group.startswith("state:")]
    inside = {stem(w) for f in [*facts, *states] for w in _WORD.findall(f.text.casefold())}
    return set(content_words(text, _NOT_CONTENT)) - inside


_ACT_WORDS = {
    ActKind.NOTIFY_SUCCESS: "confirm success",
    ActKind.NOTIFY_FAILURE: "report a failure",
    ActKind.REQ_MORE: "ask whether the user needs anything else",
    ActKind.GOODBYE: "close the conversation",
    ActKind.OFFER_INTENT: "offer to {intent}",
}


def explain_pass(gold: str, predicted: str, comparison: Comparison) -> Comparison:
    """``comparison`` with the facts both replies state added to its detail (passes explain themselves)."""
    if comparison.equivalent is not True or comparison.method is Method.FACTS:
        return comparison
    agreed = _agreed(check_reply_facts(gold, predicted).matched)
    if not agreed:
        return comparison
    return Comparison(comparison.equivalent, comparison.score, comparison.method, comparison.detail + agreed)


def _agreed(matched: tuple[str, ...]) -> str:
    return f"; facts agree: {', '.join(matched)}" if matched else ""
