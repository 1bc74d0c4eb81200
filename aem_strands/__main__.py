"""The ``aem-strands`` entry point: starts the command so that a Ctrl-C at any moment exits quietly.

The command's own modules (and numpy, scipy, rich ... behind them) take a second or more to import; a
Ctrl-C in that time would otherwise print a traceback from deep inside an import. This module imports
nothing heavy itself (``import aem_strands`` is lazy), so only the interpreter's own start-up is left
unguarded. ``python -m aem_strands`` runs the same.
"""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130


def main() -> int:
    """Import the command, then run it; exit 130 with one line on stderr when interrupted while starting."""
    try:
        from aem_strands.cli import main as run
    except KeyboardInterrupt:
        print("aem-strands: interrupted while starting; nothing was read or written", file=sys.stderr)
        return EXIT_INTERRUPTED
    try:
        return run()
    except KeyboardInterrupt:  # outside the command's own handler (e.g. while it reads its options)
        print("aem-strands: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
