"""The per-turn record builders (``make_turn``, ``make_verdict``, ``make_turn_result``) against the dataclass
constructors they stand in for: every field, in order, and a value equal in every respect."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

from aem_strands.align import AlignedPair, _pair
from aem_strands.result import TurnResult, make_turn_result
from aem_strands.types import (
    ActionCall,
    Decision,
    Method,
    Reply,
    SubMetric,
    Turn,
    TurnKind,
    TurnVerdict,
    Verdict,
    make_call,
    make_reply,
    make_turn,
    make_verdict,
)


def _same(built: Any, constructed: Any) -> None:
    assert type(built) is type(constructed)
    assert list(vars(built)) == [f.name for f in dataclasses.fields(constructed)]  # every field, in order
    assert built == constructed
    assert repr(built) == repr(constructed)
    if not isinstance(built, ActionCall):  # a call holds its arguments' dict: not hashable
        assert hash(built) == hash(constructed)
    assert pickle.loads(pickle.dumps(built)) == constructed
    assert dataclasses.replace(built) == constructed  # replace goes through __init__ and still works


def test_make_turn_is_the_constructor() -> None:
    args = (3, TurnKind.RESPONSE, Reply("hi"), Reply("hi"), ("t",), (1, 2), True, 2.0, 12.5, True)
    _same(make_turn(*args), Turn(*args))


def test_make_verdict_is_the_constructor() -> None:
    decision = Decision("turn", True, Method.EXACT, 1.0, "identical to gold")
    args = (2, TurnKind.ACTION, Verdict.PASS, (), {SubMetric.STRUCTURE: 1.0}, {SubMetric.STRUCTURE: True}, 4, "n")
    built, constructed = make_verdict(*args, (decision,)), TurnVerdict(*args, (decision,))
    assert list(vars(built)) == [f.name for f in dataclasses.fields(constructed)]
    assert built == constructed
    assert repr(built) == repr(constructed)
    assert pickle.loads(pickle.dumps(built)) == constructed


def test_make_call_and_reply_are_the_constructors() -> None:
    _same(make_call("t", "a", {}, None, ("x",)), ActionCall("t", "a", {}, None, ("x",)))
    _same(make_reply("hi"), Reply("hi"))


def test_make_turn_result_and_pair_are_the_constructors() -> None:
    turn = Turn(1, TurnKind.RESPONSE, Reply("a"), Reply("a"))
    verdict = TurnVerdict(1, TurnKind.RESPONSE, Verdict.PASS)
    built, constructed = make_turn_result(turn, verdict, None, None), TurnResult(turn, verdict, None, None)
    assert list(vars(built)) == [f.name for f in dataclasses.fields(constructed)]
    assert built == constructed
    assert built.to_dict() == constructed.to_dict()
    _same(_pair(1, 0, None), AlignedPair(1, 0, None))
