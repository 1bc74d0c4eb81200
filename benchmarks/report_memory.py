"""Peak memory of ``aem-strands report`` over a generated results file of a given size (issue 21: 8.7 GB for
a 348 MB file when the records were all held; streaming keeps it flat).

    python benchmarks/report_memory.py --mb 50 100        # JSON summary only, then with --html too
    python benchmarks/report_memory.py --mb 50 --root /tmp/old-checkout

The results file is ``score`` JSONL: the records of a few scored example dialogs, repeated with new dialog ids
and versions until the size is reached. Each run is a fresh process (``python -m aem_strands.cli report``);
its peak resident set size comes from ``os.wait4`` (``ru_maxrss``), one line per run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_results(path: Path, megabytes: float) -> int:
    """A JSONL results file of about ``megabytes`` MB; returns its number of records."""
    sys.path.insert(0, str(ROOT))
    import aem_strands

    data = ROOT / "examples" / "data"
    dialogs = [d for name in ("sales_report.json", "sales_report_two_roots.json", "travel_dataset.jsonl")
               for d in aem_strands.load_dialogs(data / name)]  # fmt: skip
    records = [r.to_dict() for r in aem_strands.evaluate_dialogs(dialogs, scorer="exact")]
    limit, size, count = int(megabytes * 1_000_000), 0, 0
    with path.open("w", encoding="utf-8") as out:
        while size < limit:
            record = records[count % len(records)]
            line = json.dumps({**record, "dialog_id": f"d{count}", "metadata": {"version": f"v{count % 3}"}}) + "\n"
            out.write(line)
            size += len(line)
            count += 1
    return count


def peak_rss(root: Path, argv: list[str]) -> tuple[int, float, int]:
    """Exit code, seconds and peak RSS (bytes) of one ``report`` run from ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root))
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "aem_strands.cli", "report", *argv],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=root,
    )  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, time.perf_counter() - started, usage.ru_maxrss * 1024  # ru_maxrss is in KiB on Linux


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mb", type=float, nargs="+", default=[50.0], help="results file sizes in MB")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    parser.add_argument("--no-html", action="store_true", help="measure the JSON summary only")
    args = parser.parse_args()
    print("| results file | records | outputs | exit | seconds | peak RSS |\n|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for megabytes in args.mb:
            path = Path(folder) / f"results_{megabytes:g}mb.jsonl"
            count = write_results(path, megabytes)
            runs = [["--json", str(Path(folder) / "s.json")]]
            if not args.no_html:
                runs.append([*runs[0], "--html", str(Path(folder) / "r.html")])
            for extra in runs:
                code, seconds, peak = peak_rss(args.root.resolve(), [str(path), *extra])
                outputs = "json + html" if "--html" in extra else "json"
                size = path.stat().st_size / 1e6
                print(f"| {size:.0f} MB | {count:,} | {outputs} | {code} | {seconds:.1f} | {peak / 1e6:,.0f} MB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
