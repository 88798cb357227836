"""What the tests share (imported by the test modules; ``conftest.py`` makes fixtures of it).

``run_cli`` runs the ``scorekeeper`` command in this process, with its own
standard input, output and error: fast, and the same ``main`` the console
script calls. ``run_cli_process`` runs it as a real process (``python -m
scorekeeper``), for the few smoke tests that check what only a process shows.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDS = Path(__file__).resolve().parent / "records"


@dataclass
class Ran:
    """What a command did: its exit status and what it wrote (text, or bytes when asked)."""

    returncode: int
    stdout: str | bytes
    stderr: str | bytes


def run_cli(*args: object, stdin: str | bytes | None = None, binary: bool = False) -> Ran:
    """``scorekeeper ARGS`` in this process; ``stdin`` is what standard input holds."""
    from scorekeeper.cli import main

    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    out, err = io.BytesIO(), io.BytesIO()
    streams = (sys.stdin, sys.stdout, sys.stderr)
    fake_in = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    fake_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    fake_err = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    sys.stdin, sys.stdout, sys.stderr = fake_in, fake_out, fake_err
    try:
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:  # argparse: --help, --version, usage errors
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        for f in (fake_out, fake_err):
            if not f.closed:
                f.flush()
    o, e = out.getvalue(), err.getvalue()
    if binary:
        return Ran(code, o, e)
    return Ran(code, o.decode("utf-8", "replace"), e.decode("utf-8", "replace"))


def run_cli_process(*args: object, stdin: str | bytes | None = None, binary: bool = False, timeout: float = 60) -> Ran:
    """``python -m scorekeeper ARGS`` as a real process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    p = subprocess.run(
        [sys.executable, "-m", "scorekeeper", *map(str, args)],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
    )
    if binary:
        return Ran(p.returncode, p.stdout, p.stderr)
    return Ran(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"))
