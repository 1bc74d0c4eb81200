"""Score one dialog written inline with the Python API and print which turn broke.

Run: python examples/quickstart.py   (uses the deterministic exact scorer: no model is loaded)
"""

from __future__ import annotations

import aem_strands

DIALOG = [
    {
        "turn_no": 1,
        "turn": "Tool",
        "gold_turn": {"tool_id": "crm", "action": "FindCustomer", "args": {"email": "ann@example.com"}},
        "predict_turn": {"tool_id": "crm", "action": "FindCustomer", "args": {"email": "ANN@example.com "}},
    },
    {
        "turn_no": 2,
        "turn": "Tool",
        "gold_turn": {"tool_id": "billing", "action": "Refund", "args": {"order": "A-17", "amount": 20}},
        "predict_turn": {"tool_id": "billing", "action": "Refund", "args": {"order": "A-17", "amount": "200"}},
    },
    {
        "turn_no": 3,
        "turn": "Agent",
        "gold_turn": {"response": "I refunded 20 EUR for order A-17."},
        "predict_turn": {"response": "I refunded 200 EUR for order A-17."},
    },
]


def main() -> int:
    result = aem_strands.evaluate_dialog(DIALOG, scorer="exact")
    print(result.reason())
    for turn in result.to_dict()["turns"]:
        print(turn["turn_no"], turn["failure_reason"] or "pass", turn["caused_by"] or "")
    return 0 if result.root_causes and result.root_causes[0].turn.turn_no == 2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
