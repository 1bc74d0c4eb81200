"""Gold that lists only the required actions: extra lookups tolerated, extra writes failing, replies left out.

Run: python examples/required_actions.py   (uses the deterministic exact scorer: no model is loaded)

The same as ``aem-strands score examples/data/required_actions.json --scope actions --allow-extra read_only
--tools examples/data/required_actions.tools.json``. Each dialog's metadata says what it shows and the
verdict it should get (``expect_pass``); the script exits 1 if any verdict differs.
"""

from __future__ import annotations

import json
from pathlib import Path

import aem_strands

DATA = Path(__file__).resolve().parent / "data"


def main() -> int:
    dialogs = json.loads((DATA / "required_actions.json").read_text(encoding="utf-8"))
    results = aem_strands.evaluate_dialogs(
        dialogs,
        scope="actions",  # replies on both sides are left out
        allow_extra="read_only",  # an extra call to a read-only tool, or a call that failed, is tolerated
        tools=str(DATA / "required_actions.tools.json"),  # which tools are read-only (MCP readOnlyHint)
        scorer="exact",
    )
    surprises = 0
    for dialog, result in zip(dialogs, results, strict=True):
        verdict = "PASS" if result.test_pass else "FAIL"
        print(f"{result.dialog_id}: {verdict} {result.score} | {result.reason()}")
        for tolerated in result.metadata["alignment"]["tolerated"]:
            print(f"    tolerated: {tolerated['why']}")
        surprises += result.test_pass != dialog["metadata"]["expect_pass"]
    return 1 if surprises else 0


if __name__ == "__main__":
    raise SystemExit(main())
