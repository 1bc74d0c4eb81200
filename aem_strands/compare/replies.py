"""Judging one reply pair before any model: facts, acts, then what the semantic stage must decide.

``settle_reply`` is the deterministic reply stage of the comparison chain (``chain.Comparator``
calls it for every reply pair that exact match and typed normalisation left open):

- a contradicted or omitted fact, or a request for other information, settles the pair as **not
  equivalent** (``method: facts``; the detail names both facts: ``7 am vs gold 7 pm``);
- two requests for the same information settle it as **equivalent** (``asks for the same
  information (date:departure)``); so do two replies made of the same content-free dialog acts
  (success, failure, ``Anything else?``, goodbye, an offer of the same action) whose facts all
  agree (``both confirm success (notify_success); facts agree: 7 pm``);
- anything else is left to the semantic scorer; ``explain_pass`` then adds the facts both replies
  state to the scorer's reason, so a passing reply can be audited.

Turn judging (``checks``) reads the same ``check_reply_facts`` result, so ``compare`` and ``score``
give one verdict on one pair.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from aem_strands.compare.acts import ActKind, agreeing_acts, dialog_act, stated_facts
from aem_strands.compare.facts import check_reply_facts
from aem_strands.types import Comparison, Method, ValueKind

Pair = tuple[str, str]


def settle_replies(pairs: Iterable[Pair]) -> dict[Pair, Comparison]:
    """``settle_reply`` for many pairs: the pairs it settles, with their comparisons."""
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


def settle_reply(gold: str, predicted: str) -> Comparison | None:
    """The facts-and-acts verdict on a reply pair, or ``None`` when the semantic stage must decide."""
    check = check_reply_facts(gold, predicted)
    if check.findings:
        return Comparison(False, 0.0, Method.FACTS, "facts: " + "; ".join(f.detail for f in check.findings))
    agreed = _agreed(check.matched)
    if check.same_request:
        topics = ", ".join(sorted(dialog_act(gold).requests))
        return Comparison(True, 1.0, Method.FACTS, f"asks for the same information ({topics}){agreed}")
    kinds = agreeing_acts(gold, predicted)
    if kinds is not None and len(stated_facts(gold)) == len(stated_facts(predicted)) == len(check.matched):
        intents = dialog_act(gold).intents
        what = " and ".join(_ACT_WORDS[k].format(intent="/".join(sorted(intents))) for k in sorted(kinds))
        return Comparison(True, 1.0, Method.FACTS, f"both {what} ({', '.join(sorted(kinds))}){agreed}")
    return None


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
