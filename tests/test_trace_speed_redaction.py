"""Issue 29: redaction loads Presidio's recognizers and detect-secrets only for a text one of them could match."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

_PROBE = """
import json, sys
from aem_strands.trace.pii import Redactor
from aem_strands.trace.redaction import recognizers, secrets
redactor = Redactor()
out = [redactor.redact(text) for text in json.loads(sys.argv[1])]
loaded = recognizers._recognizers.cache_info().currsize, secrets._detectors.cache_info().currsize
print(json.dumps([out, loaded[0] > 0, loaded[1] > 0 and "detect_secrets" in sys.modules]))
"""


def _redacted(*texts: str) -> tuple[list[str], bool, bool]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(texts)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300, check=True)  # fmt: skip
    out, presidio, secrets = json.loads(done.stdout)
    return out, presidio, secrets


def test_plain_texts_load_no_recognizer() -> None:
    texts = ("Order ORDER_123456 has shipped.", "status: processing", "max_steps 4/30")
    assert _redacted(*texts) == (list(texts), False, False)


def test_a_card_and_a_key_still_load_them_and_are_redacted() -> None:
    out, presidio, secrets = _redacted("Card 4111 1111 1111 1111 on file.", "api_key: Xk9mP2vQ7rT4wZ8s")
    assert out == ["Card <CARD_1> on file.", "api_key: <SECRET_1>"]
    assert presidio
    assert secrets
