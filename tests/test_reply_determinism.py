"""A reply's reason is the same in every process: no finding's order may follow a set's (the hash seed's) order."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from aem_strands.compare.facts import check_reply_facts

PAIRS = [
    ("The 1 Hotel is a 4 star hotel.", "The 4 Hotel is a 1 star hotel."),
    ("It has 3 bedrooms and 2 baths.", "It has 2 bedrooms and 3 baths."),
    ("I booked 2 rooms for 3 nights at 7 pm.", "I booked 3 rooms for 2 nights at 8 pm."),
]
SCRIPT = (
    "import json, sys\n"
    "from aem_strands.compare.facts import check_reply_facts\n"
    "pairs = json.loads(sys.argv[1])\n"
    "print(json.dumps([[f.detail for f in check_reply_facts(g, p).findings] for g, p in pairs]))\n"
)


def test_swapped_counts_are_reported_in_golds_order() -> None:
    details = [f.detail for f in check_reply_facts(*PAIRS[0]).findings]
    assert details == ["4 hotel vs gold 1 hotel", "1 star vs gold 4 star"]


def test_findings_come_in_one_order_whatever_the_hash_seed() -> None:
    outputs = set()
    for seed in range(6):  # two findings in a set's order agree across 6 seeds by chance once in 32 runs
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "HF_HUB_OFFLINE": "1"}
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, json.dumps(PAIRS)], capture_output=True, text=True, check=True, env=env
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert json.loads(outputs.pop()) == [[f.detail for f in check_reply_facts(*pair).findings] for pair in PAIRS]
