"""Issue 29: redacted everywhere the trace command writes (error records, their stderr lines, the HTML list of
unreadable traces and its step strips), tokens that neither collide nor split, findings whose evidence is the
fragment that shows the value (bounded), and detection that imports no NLP stack."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from aem_strands.cli import main
from aem_strands.trace.pii import EVIDENCE_CHARS, Redactor, sensitive_findings
from aem_strands.trace.types import ActionType, Environment, SensitiveDataRule, Step, Trace

CARD = "4111 1111 1111 1111"


def _run(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _write_jsonl(path: Path, items: list[Any]) -> Path:
    path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    return path


BAD = {"trace_id": "bad", "steps": [{"step_id": "s1", "action_type": CARD}]}  # pydantic quotes the value it refuses
NAMED = {
    "trace_id": "jane@example.com",
    "steps": [
        {"step_id": "ana@example.com", "action_type": "user", "content": "hi"},
        {"step_id": "s2", "action_type": "tool_call", "tool_name": "dial (415) 555-2671", "arguments": {},
         "observation": {}},
        {"step_id": "r", "action_type": "response", "content": "ok"},
    ],
}  # fmt: skip


def test_error_records_their_stderr_lines_and_the_html_list_are_redacted(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "t.jsonl", [BAD, NAMED])
    page = tmp_path / "t.html"
    code, out, err = _run("trace", path, "--html", page)
    assert code == 2
    error = json.loads(out.splitlines()[0])["error"]
    assert "got '<CARD_1>'" in error["message"]
    assert (error["file"], error["line"]) == (str(path), 1)  # still joins its input
    assert "4111" not in out
    assert "4111" not in err
    assert "<CARD_1>" in err
    html = page.read_text(encoding="utf-8")
    assert "4111" not in html
    assert "got &#x27;&lt;CARD_1&gt;&#x27;" in html


def test_with_keep_pii_the_error_shows_the_value(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "t.jsonl", [BAD])
    _, out, err = _run("trace", path, "--keep-pii")
    assert CARD in json.loads(out)["error"]["message"]
    assert CARD in err


def test_the_html_strip_redacts_step_ids_and_tool_names_and_keeps_a_redacted_traces_strip(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "t.jsonl", [NAMED])
    page = tmp_path / "t.html"
    code, _, _ = _run("trace", path, "--html", page, "--out", tmp_path / "out.jsonl")
    assert code == 0
    html = page.read_text(encoding="utf-8")
    assert "example.com" not in html
    assert "555-2671" not in html
    assert 'id="trace-&lt;EMAIL_1&gt;"' in html
    # the strip is found under the redacted trace id: the user step's redacted id, the tool's redacted name
    assert "&lt;EMAIL_2&gt; <small>user</small>" in html
    assert "dial &lt;PHONE_1&gt;" in html
    _run("trace", path, "--html", page, "--out", tmp_path / "out.jsonl", "--keep-pii")
    kept = page.read_text(encoding="utf-8")
    assert "ana@example.com <small>user</small>" in kept


def test_a_literal_token_in_the_input_and_a_real_value_never_share_a_token() -> None:
    for first, second in (("<EMAIL_1> is a placeholder", "write to bob@example.org"),
                          ("write to bob@example.org", "<EMAIL_1> is a placeholder")):  # fmt: skip
        redactor = Redactor()
        out = [redactor.redact(first), redactor.redact(second)]
        literal = next(o for o in out if "placeholder" in o)
        real = next(o for o in out if "write to" in o)
        assert real == "write to <EMAIL_1>"
        assert literal == "\u2039EMAIL_1\u203a is a placeholder"  # set apart: single guillemets


def test_two_writings_of_one_phone_or_address_get_one_token() -> None:
    redactor = Redactor()
    assert redactor.redact("call +1 415 555 2671") == "call <PHONE_1>"
    assert redactor.redact("or 415 555 2671") == "or <PHONE_1>"  # read in the US: the same number
    assert redactor.redact("or +44 20 7946 0958") == "or <PHONE_2>"
    assert redactor.redact("ship to 42 Elm Street.") == "ship to <ADDRESS_1>."  # the full stop stays the sentence's
    assert redactor.redact("42 Elm Street, Springfield") == "<ADDRESS_1>, Springfield"
    assert redactor.redact("12 Oak St. apt 4") == "<ADDRESS_2>"


def test_a_card_stored_as_a_float_is_redacted_and_vetoed() -> None:
    assert Redactor().redact_json({"card": 4111111111111111.0, "amount": 40.5, "big": 1234567.0}) == {
        "card": "<CARD_1>",
        "amount": 40.5,
        "big": 1234567.0,  # seven digits: no card, id or phone
    }
    env = Environment(sensitive=SensitiveDataRule(forbid_to_tools={"card": ("send_email",)}))
    sent = Trace("t", (Step("s0", 0, ActionType.TOOL_CALL, tool_name="send_email",
                            arguments={"card": 4111111111111111.0}),))  # fmt: skip
    assert [f.rule for f in sensitive_findings(sent, env)] == ["safety.sensitive_to_tool"]
    assert sensitive_findings(Trace("t", (Step("s0", 0, ActionType.TOOL_CALL, tool_name="send_email",
                                               arguments={"amount": 40.5}),)), env) == []  # fmt: skip


def _reply(text: str) -> Trace:
    return Trace("t", (Step("r", 0, ActionType.RESPONSE, content=text),), final_response=text)


def test_the_new_kinds_are_vetoed_where_the_policy_forbids_them() -> None:
    env = Environment(sensitive=SensitiveDataRule(forbid_in_reply=("iban", "pin", "otp")))
    leaked = _reply("Paid from DE89 3704 0044 0532 0130 00; your PIN 4821 and code 482913 are set.")
    kinds = [f.evidence["sensitive"]["kind"] for f in sensitive_findings(leaked, env)]  # type: ignore[index]
    assert kinds == ["iban", "pin", "otp"]
    assert sensitive_findings(_reply("Paid from the account ending 3000."), env) == []
    assert sensitive_findings(leaked, Environment(sensitive=SensitiveDataRule(forbid_in_reply=()))) == []


def test_a_findings_evidence_is_the_fragment_not_the_reply() -> None:
    filler = "Here is the full export of your account history, line by line. " * 40  # 2,600 characters
    text = f"{filler}Card on file: {CARD}. {filler}"
    (finding,) = sensitive_findings(_reply(text), Environment())
    evidence = finding.evidence
    assert isinstance(evidence, dict)
    fragment = evidence["sensitive"]["fragment"]  # type: ignore[index]
    assert CARD in fragment
    assert len(fragment) <= EVIDENCE_CHARS + 2  # the value and its surroundings, plus an ellipsis either side
    assert filler not in json.dumps(evidence)


ENTRY = "Entry {i:04d}: the card on file for this subscription is " + CARD + ", charged monthly."


def _timed_run(path: Path) -> tuple[dict[str, Any], int, float]:
    start = time.perf_counter()
    code, out, _ = _run("trace", path)
    seconds = time.perf_counter() - start
    assert code == 1
    assert "4111" not in out
    return json.loads(out), len(out), seconds


def test_a_thousand_sensitive_values_in_one_reply_are_one_bounded_finding(tmp_path: Path) -> None:
    # One reply of 1,000 lines of ~90 characters, each showing a card: about 93 KB of input. Before: one finding
    # per card, each embedding the whole reply: 83 MB of output, 72 s of CPU.
    reply = "\n".join(ENTRY.format(i=i) for i in range(1000))
    steps = [{"step_id": "u", "action_type": "user", "content": "list my cards"},
             {"step_id": "r", "action_type": "response", "content": reply}]  # fmt: skip
    path = _write_jsonl(tmp_path / "t.jsonl", [{"trace_id": "one", "steps": steps}])
    record, size, seconds = _timed_run(path)
    (finding,) = record["dimensions"]["safety"]["findings"]
    shown = finding["evidence"]["sensitive"]
    assert (shown["count"], len(shown["starts"])) == (1000, 20)  # every value counted, the first 20 placed
    assert "1000 card values (the first at character 54)" in finding["message"]  # len("Entry 0000: ... is ") = 54
    assert size < path.stat().st_size  # the record is smaller than its input
    assert seconds < 60


def test_a_thousand_replies_each_showing_a_value_grow_the_output_linearly(tmp_path: Path) -> None:
    steps = [{"step_id": "u", "action_type": "user", "content": "list my cards"}]
    steps += [{"step_id": f"r{i}", "action_type": "response", "content": ENTRY.format(i=i)} for i in range(1000)]
    path = _write_jsonl(tmp_path / "t.jsonl", [{"trace_id": "many", "steps": steps}])
    record, size, seconds = _timed_run(path)
    assert len(record["dimensions"]["safety"]["findings"]) == 1000  # one a reply
    assert size < 5 * path.stat().st_size  # each finding bounded: its message, step and fragment (< 500 bytes)
    assert seconds < 60


def test_detection_imports_no_nlp_stack() -> None:
    code = (
        "import sys\n"
        "from aem_strands.trace.pii import Redactor\n"
        "out = Redactor().redact('card 4111 1111 1111 1111, IBAN GB82WEST12345698765432, SSN 536-22-8710, '\n"
        "                        'jane@example.com, +1 415 555 2671, password: hunter2')\n"
        "assert '4111' not in out and 'GB82' not in out and 'hunter2' not in out, out\n"
        "print(sorted(m for m in ('spacy', 'torch', 'transformers', 'presidio_analyzer') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"


def test_presidio_imported_later_is_the_real_package() -> None:
    # The recognizers are loaded under a stand-in for the package, which is then forgotten: a later import (the
    # reply checks load spaCy, which registers Presidio's factories) gets the whole package.
    code = (
        "from aem_strands.trace.pii import find_sensitive\n"
        "assert find_sensitive('card 4111 1111 1111 1111')\n"
        "from presidio_analyzer import AnalyzerEngine\n"
        "from presidio_analyzer.predefined_recognizers import CreditCardRecognizer\n"
        "print(len(CreditCardRecognizer().analyze('4111 1111 1111 1111', ['CREDIT_CARD'], None)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.strip() == "1"


def test_a_fragment_never_cuts_a_neighbouring_value_in_half() -> None:
    # The IBAN's window (49 characters either side: (120 - 22) // 2) would start at character 14, inside the card
    # (characters 2-21); the card is left out of the fragment rather than shown in part ("1111 1111").
    text = f"x {CARD} {'y' * 40} GB82WEST12345698765432 end"
    env = Environment(sensitive=SensitiveDataRule(forbid_in_reply=("iban",)))
    (finding,) = sensitive_findings(_reply(text), env)
    fragment = finding.evidence["sensitive"]["fragment"]  # type: ignore[index]
    assert fragment == f"…{' ' + 'y' * 40} GB82WEST12345698765432 end"
    assert "1111" not in fragment
