"""Judge the example agent traces against the support desk's policy and print, per trace, its outcome and
the first critical failure step with the rule that chose it.

Run: python examples/trace_quickstart.py   (rules only: no model is loaded, nothing leaves the machine)

The traces (examples/data/traces/) tell the stories of issue 20: a refund with and without verifying identity,
an order cancelled with and without the customer's consent, replies that contradict or follow what a tool
returned, a looped lookup, a timeout hidden behind "done" or honestly explained, an invented order id, and
the clean refund-status trace that passes every dimension.
"""

from __future__ import annotations

import json
from pathlib import Path

import aem_strands
from aem_strands.options import EvalOptions
from aem_strands.trace.record import trace_record

DATA = Path(__file__).parent / "data" / "traces"
FILES = ["refund_status.json", "refund_identity.yaml", "cancel_consent.json", "result_use.jsonl",
         "looped_lookup.json", "timeout.yaml", "ungrounded_order.json"]  # fmt: skip


def main() -> None:
    options = EvalOptions(policy=str(DATA / "policy.yaml"))
    loaded = aem_strands.iter_traces([DATA / name for name in FILES])
    for result in aem_strands.evaluate_traces(loaded, options):
        if isinstance(result, aem_strands.InputError):
            print(f"skipped: {result}")
            continue
        failed = ",".join(d.value for d, v in result.dimensions.items() if v.passed is False) or "-"
        veto = " VETO" if result.veto else ""
        line = f"{result.trace_id}: {result.status.value}{veto} failed={failed}"
        diagnosis = result.diagnosis
        if diagnosis.first_critical_failure_step is not None:
            rule = diagnosis.critical_rule.split(":")[0]
            line += f" | first critical step {diagnosis.first_critical_failure_step} ({rule})"
        print(line)
    # One full record, as `aem-strands trace` writes it (personal data redacted by default).
    (story,) = aem_strands.load_traces(DATA / "ungrounded_order.json")
    record = trace_record(aem_strands.evaluate_trace(story, options))
    print(json.dumps({k: record[k] for k in ("trace_id", "first_critical_failure_step", "downstream_failures",
                                             "root_cause_hypothesis", "affected_layers")}, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
