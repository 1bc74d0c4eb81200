"""What reading reply facts with roles costs: loading the parser, parsing a text, and how many pairs need it.

    .venv/bin/python benchmarks/role_costs.py [--limit N]

On the reply pairs of ``benchmarks/reply_throughput.py`` (SGD calibration and held-out, hand-made, STS-B):
times ``check_reply_facts`` on every pair without the ``roles`` check, counts the pairs the ``roles`` check
parses (no other finding, and a shared content word: ``facts.pending_parses``), then times loading the
spaCy pipeline once, parsing those texts in one batch (``roles.parse_many``) and the role comparison on
the parsed pairs. Only figures are printed (no pair text), so the held-out pairs stay unread.
"""

from __future__ import annotations

import argparse
import time

from reply_throughput import reply_pairs

from aem_strands.compare import roles
from aem_strands.compare.facts import CHECKS, check_reply_facts, pending_parses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, help="only the first N pairs")
    args = parser.parse_args()
    pairs = reply_pairs()[: args.limit]
    unparsed = [c for c in CHECKS if c != "roles"]
    started = time.perf_counter()
    for gold, predicted in pairs:
        check_reply_facts(gold, predicted, unparsed)
    facts_s = time.perf_counter() - started
    texts = pending_parses(pairs)
    parsed_pairs = len(texts) // 2
    started = time.perf_counter()
    roles.english_parser()
    load_s = time.perf_counter() - started
    distinct = list(dict.fromkeys(texts))
    started = time.perf_counter()
    roles.parse_many(distinct)
    parse_s = time.perf_counter() - started
    started = time.perf_counter()
    failed = sum(1 for gold, predicted in pairs if check_reply_facts(gold, predicted).findings)
    compare_s = time.perf_counter() - started
    print(f"{len(pairs)} reply pairs; facts without roles: {facts_s:.2f} s ({facts_s / len(pairs) * 1000:.2f} ms/pair)")
    print(f"pairs the roles check parses: {parsed_pairs} ({parsed_pairs / len(pairs):.0%}), {len(distinct)} texts")
    print(f"load {roles.MODEL}: {load_s:.2f} s (once per process)")
    print(f"parse in one batch: {parse_s:.2f} s = {parse_s / max(len(distinct), 1) * 1000:.2f} ms/text")
    print(f"all checks with roles, texts parsed: {compare_s:.2f} s; {failed} pairs with a finding")
    per_pair = (facts_s + parse_s) / len(pairs) * 1000
    print(f"fact reading with roles, per pair over all pairs (load aside): {per_pair:.2f} ms")


if __name__ == "__main__":
    main()
