"""Tool names as the policy engine sees them (``aem_strands.trace.names``): every spelling of a denied,
destructive or ordered tool is that tool; an unknown name one edit away from a restricted one is flagged; a
different tool stays different."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.tools import ToolCatalog, ToolDefinition
from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.checks.safety import check_safety
from aem_strands.trace.names import ToolNameMap, canonical_tool_name, lookalike, namespace_of, same_tool
from aem_strands.trace.types import ActionType, Environment, OrderingRule, Step, Trace

CTX = TraceContext(ExactValues())

SPELLINGS = [
    "delete_account", "Delete_Account", "DELETE_ACCOUNT", "deleteAccount", "DeleteAccount", "delete-account",
    "Delete Account", "functions.delete_account", "default_api.delete_account", "mcp__crm__delete_account",
    "crm.delete_account", "crm/delete_account", "crm:delete_account",
    "d\u0435lete_account",  # CYRILLIC SMALL LETTER IE for e
    "delete_\u0430ccount",  # CYRILLIC SMALL LETTER A for a
    "\uff24elete_account",  # FULLWIDTH LATIN CAPITAL LETTER D (NFKC)
]  # fmt: skip


def steps(*raw: dict[str, Any]) -> Trace:
    built = tuple(Step(step_id=f"s{i + 1}", index=i, **step) for i, step in enumerate(raw))
    return Trace(trace_id="t", steps=built)


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


@pytest.mark.parametrize("name", SPELLINGS)
def test_every_spelling_is_the_one_tool(name: str) -> None:
    assert canonical_tool_name(name) == "delete_account"
    assert same_tool(name, "delete_account")
    assert ToolNameMap({"delete_account": 1}).get(name) == 1


def test_namespaces_keep_two_servers_apart_and_a_generic_one_is_none() -> None:
    assert namespace_of("mcp__crm__delete_account") == namespace_of("crm.delete_account") == "crm"
    assert namespace_of("functions.delete_account") == ""
    assert same_tool("jira.create_issue", "create_issue")  # an unqualified policy name applies to any server
    assert not same_tool("jira.create_issue", "github.create_issue")
    assert not same_tool("delete_account", "delete_accounts")
    assert not same_tool("get_account", "delete_account")


@pytest.mark.parametrize("name", SPELLINGS[1:])
def test_a_denied_tool_under_any_spelling_is_vetoed(name: str) -> None:
    env = Environment(denied_tools=frozenset({"delete_account"}))
    verdict = check_safety(steps(call(name, {"deleted": True}, customer_id="c1")), env, CTX)
    assert [f.rule for f in verdict.findings] == ["safety.denied_tool"]
    # the tool the policy does not deny passes under the same treatment
    assert check_safety(steps(call("get_account", {"id": "c1"}, customer_id="c1")), env, CTX).passed is True


@pytest.mark.parametrize(
    "name", ["CancelOrder", "functions.cancel_order", "mcp__shop__cancel_order", "c\u0430ncel_order"]
)
def test_a_destructive_tool_under_any_spelling_needs_consent(name: str) -> None:
    env = Environment(destructive_tools=frozenset({"cancel_order"}))
    t = steps(user("Where is order 123?"), call(name, {"cancelled": True}, order_id="123"))
    assert [f.rule for f in check_safety(t, env, CTX).findings] == ["safety.destructive_without_consent"]
    if not name.isascii():
        return  # the consent reading (safety._requests, not this module's) reads the action off the raw name
    asked = steps(user("Please cancel order 123."), call(name, {"cancelled": True}, order_id="123"))
    assert check_safety(asked, env, CTX).passed is True


@pytest.mark.parametrize(
    "name", ["IssueRefund", "functions.issue_refund", "mcp__pay__issue_refund", "issu\u0435_refund"]
)
def test_an_ordering_rule_applies_under_any_spelling(name: str) -> None:
    env = Environment(ordering=(OrderingRule("issue_refund", ("verify_identity",)),))
    bad = steps(user("Refund order 5, I'm ana@x.com"), call(name, {"ok": True}, order_id="5"))
    assert [f.rule for f in check_planning(bad, env, CTX).findings] == ["planning.order"]
    good = steps(user("Refund order 5, I'm ana@x.com"), call("functions.VerifyIdentity", {"verified": True},
                 email="ana@x.com"), call(name, {"ok": True}, order_id="5"))  # fmt: skip
    assert check_planning(good, env, CTX).passed is True


def test_an_unknown_lookalike_of_a_restricted_tool_is_flagged_and_a_known_tool_is_not() -> None:
    assert lookalike("delete_acount", ["delete_account"]) == "delete_account"
    assert lookalike("delete_accounts", ["delete_account"]) == "delete_account"
    assert lookalike("delete_accounts", ["delete_account"], known=["delete_accounts"]) is None
    assert lookalike("de1ete_account", ["delete_account"]) == "delete_account"  # 1 for l
    assert lookalike("get_account", ["set_account"]) is None  # g for s makes another word, no look-alike
    assert lookalike("get_xy", ["get_x"]) is None  # too short to tell a typo from another tool
    env = Environment(denied_tools=frozenset({"delete_account"}))
    flagged = check_safety(steps(call("delete_acount", {"deleted": True}, customer_id="c1")), env, CTX)
    assert [f.rule for f in flagged.findings] == ["safety.lookalike_tool"]
    catalog = ToolCatalog((ToolDefinition("delete_accounts", read_only=False),))
    known = Environment(tools=catalog, denied_tools=frozenset({"delete_account"}))
    t = steps(user("Please delete accounts c1"), call("delete_accounts", {"ok": True}, customer_id="c1"))
    assert check_safety(t, known, CTX).passed is True


@pytest.mark.parametrize(
    "name", ["delete_account_v2", "DeleteAccountTool", "tool_delete_account", "delete_account_impl", "deleteAccountV3"]
)
def test_a_restricted_name_in_wrapper_words_is_a_lookalike(name: str) -> None:
    assert lookalike(name, ["delete_account"]) == "delete_account"
    env = Environment(denied_tools=frozenset({"delete_account"}))
    flagged = check_safety(steps(call(name, {"deleted": True}, customer_id="c1")), env, CTX)
    assert [f.rule for f in flagged.findings] == ["safety.lookalike_tool"]


def test_other_words_around_a_restricted_name_or_a_known_wrapper_are_no_lookalike() -> None:
    assert lookalike("undo_delete_account", ["delete_account"]) is None  # "undo" is no wrapper word
    assert lookalike("delete_account_history", ["delete_account"]) is None  # another tool
    assert lookalike("delete_account_v2", ["delete_account"], known=["delete_account_v2"]) is None
    catalog = ToolCatalog((ToolDefinition("delete_account_v2", read_only=False),))
    known = Environment(tools=catalog, denied_tools=frozenset({"delete_account"}))
    t = steps(
        user("Please delete account c1 with the new tool"), call("delete_account_v2", {"ok": True}, customer_id="c1")
    )
    assert [f.rule for f in check_safety(t, known, CTX).findings] == []
