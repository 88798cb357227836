"""Rewrite the asserts of every test module once, as pytest does when it imports one, into
pytest's own cache (``__pycache__/NAME.cpython-311-pytest-X.pyc`` beside the module), in
one process a core.

    .venv/bin/python -m tools.warm_asserts

``make test`` runs it first. Each of the suite's pytest-xdist processes imports every test
module to collect it, and pytest rewrites a module's asserts (to say what each side was when
one fails) before it runs it: about 6 CPU-seconds for the whole suite, which pytest keeps in
the cache above, except where ``PYTHONDONTWRITEBYTECODE`` is set (CI sets it). Then the
three processes rewrote every module each, at every run: 46 CPU-seconds and 31 s of a 2-core
machine before the first test, against 18 and 12 s from the cache (2026-11-29). pytest reads
the cache whether or not it may write it, and checks each file against its module's source
(a hash of it), so a module edited since is rewritten as before.

The files are the ones pytest rewrites: every ``conftest.py`` and ``test_*.py`` or
``*_test.py`` (pytest's default ``python_files``) under the test paths. The rewriting is
pytest's own (``_pytest.assertion.rewrite``: pytest has no public way to write its cache);
if a later pytest moves it, this says so and writes nothing, and the suite only starts
slower (``tests/test_warm_asserts.py`` fails, to say it).
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: pyproject.toml's ``testpaths``.
TEST_PATHS = ("scorekeeper", "tests")


def test_modules(root: Path = ROOT) -> list[Path]:
    """The modules pytest rewrites under the test paths of ``root``."""
    found: list[Path] = []
    for top in TEST_PATHS:
        for p in sorted((root / top).rglob("*.py")):
            if p.name == "conftest.py" or p.name.startswith("test_") or p.name.endswith("_test.py"):
                found.append(p)
    return found


def warm(path: Path) -> bool:
    """Rewrite ``path`` into pytest's cache unless the cache holds it already; True if it
    holds it now."""
    from _pytest.assertion import rewrite

    pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
    if rewrite._read_pyc(path, pyc) is not None:
        return True
    if not rewrite.try_makedirs(pyc.parent):
        return False
    source_hash, code = rewrite._rewrite_test(path, None)  # type: ignore[arg-type]  # (no config: its defaults)
    with open(f"{pyc}.{os.getpid()}", "wb") as fp:  # then renamed: a reader never sees half a file
        rewrite._write_pyc_fp(fp, source_hash, code)
    os.replace(f"{pyc}.{os.getpid()}", pyc)
    return True


def main() -> int:
    try:
        from _pytest.assertion import rewrite

        for name in ("get_cache_dir", "PYC_TAIL", "_read_pyc", "try_makedirs", "_rewrite_test", "_write_pyc_fp"):
            getattr(rewrite, name)
    except (ImportError, AttributeError) as e:
        print(f"tools.warm_asserts: this pytest rewrites differently ({e}): nothing written", file=sys.stderr)
        return 0
    modules = test_modules()
    with ProcessPoolExecutor(os.cpu_count() or 1) as pool:
        held = sum(pool.map(warm, modules, chunksize=8))
    if held < len(modules):
        print(f"tools.warm_asserts: {len(modules) - held} of {len(modules)} not written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
