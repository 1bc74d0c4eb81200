"""The command's entry point: a cheap package import, and a Ctrl-C while starting exits 130 quietly (issue 9)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import aem_strands

ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")


def python(code: str, *, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def test_importing_the_package_imports_nothing_heavy() -> None:
    probe = python(
        """
        import sys
        import aem_strands
        print(sorted(m for m in ("aem_strands.cli", "aem_strands.evaluate", "numpy", "rich") if m in sys.modules))
        """
    )
    out, err = probe.communicate(timeout=120)
    assert (out, probe.returncode) == ("[]\n", 0), err


def test_every_public_name_resolves_and_all_lists_exactly_them() -> None:
    assert sorted(aem_strands.__all__) == sorted(["__version__", *aem_strands._HOMES])
    for name in aem_strands.__all__:
        assert getattr(aem_strands, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = aem_strands.nothing_here


def test_a_ctrl_c_during_the_imports_exits_130_without_a_traceback() -> None:
    # Deterministic: the interrupt is raised exactly where a Ctrl-C would land, inside the import of
    # the command's modules (a finder that trips on aem_strands.evaluate).
    probe = python(
        """
        import importlib.abc, sys

        class Trip(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "aem_strands.evaluate":
                    raise KeyboardInterrupt
                return None

        sys.meta_path.insert(0, Trip())
        sys.argv = ["aem-strands", "score", "-"]
        from aem_strands.__main__ import main
        sys.exit(main())
        """
    )
    out, err = probe.communicate(timeout=120)
    assert probe.returncode == 130
    assert (out, err) == ("", "aem-strands: interrupted while starting; nothing was read or written\n")


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc to see when the command has started")
@pytest.mark.parametrize("module", ["aem_strands", "aem_strands.__main__"])
def test_a_real_sigint_soon_after_start_exits_130_without_a_traceback(module: str) -> None:
    # Whether the signal lands while the modules import or while the command waits on stdin, the
    # answer is the same: exit 130 and one line on stderr.
    probe = subprocess.Popen(
        [sys.executable, "-m", module, "score", "-", "--scorer", "exact"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        # a test run started in the background inherits SIGINT ignored, and so would the command
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Wait until the command is past the interpreter's own start-up (which no program can guard): numpy,
    # imported by the command's modules, is mapped into the process.
    maps = Path(f"/proc/{probe.pid}/maps")
    deadline = time.monotonic() + 60
    while "numpy" not in maps.read_text() and time.monotonic() < deadline:
        time.sleep(0.01)
    probe.send_signal(signal.SIGINT)
    out, err = probe.communicate(timeout=120)
    assert probe.returncode == 130, err
    assert "Traceback" not in err
    assert err.startswith("aem-strands: interrupted"), err
    assert out == ""
