"""Fixtures shared by every test directory (``tests/<game>/``, ``tests/store/`` ...)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from support import RECORDS, Ran, run_cli

#: Never imported into the test processes: its hooks make the project see Windows, for the
#: child processes of tests/store/test_portable.py only (imported here, by the doctest
#: collection, they broke every later test of that process).
collect_ignore_glob = ["store/as_windows/*"]

# No time limit per example: a deadline is a timed assertion, and it fails on a busy
# machine (the suite runs beside browsers). Speed is measured in benchmarks/.
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist's: unknown without it)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """``--dist loadfile`` (``make test``) hands out the costliest test file left first
    (``tests/costs.py``); any other mode is pytest-xdist's own."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from costs import costliest_first_scheduler

    return costliest_first_scheduler()(config, log)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The league's throwaway PostgreSQL still running when the run ends (the test process
    that would have stopped it crashed: ``tests/league/conftest.py`` counts its users) is
    stopped by the process that ran the session: a cluster is never left behind."""
    if hasattr(session.config, "workerinput"):  # a test process of pytest-xdist's
        return
    base = getattr(session.config, "_tmp_path_factory", None)
    base = getattr(base, "_basetemp", None)  # None: no temporary folder made, no cluster
    if base is None or not (base / "league-pg.json").exists():
        return
    state = base / "league-pg.json"
    import json

    from filelock import FileLock

    from scorekeeper.league.throwaway import Cluster

    with FileLock(base / "league-pg.lock"):
        if state.exists():
            Cluster(Path(json.loads(state.read_text(encoding="utf-8"))["folder"])).stop()
            state.unlink()


@pytest.fixture
def cli() -> Callable[..., Ran]:
    """Run ``scorekeeper ARGS`` in this process: ``cli("score", path, stdin=...)``."""
    return run_cli


@pytest.fixture
def records() -> Path:
    """The directory of the sample records (``tests/records``)."""
    return RECORDS


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[object]:
    """The app's shared store access on a fresh database (closed after the test)."""
    from scorekeeper.ui.server.shared import open_shared

    s = open_shared(str(tmp_path / "db"))
    yield s
    s.close()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The phone's site (``scorekeeper site``), built once for the whole test run by a new
    process in a network namespace of its own (``unshare -n``: no interface but a loopback that
    is down), so the build is proved to ask nothing of any network. The test processes of a
    parallel run (pytest-xdist) share it, the first one builds it under a lock; what the build
    printed is kept beside it (``site_built``). Where there is no ``unshare`` (Windows, macOS)
    the site is built all the same, with the network there."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    from filelock import FileLock

    from scorekeeper.site.build import MARK

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # shared by the workers of this run
    site = base / "phone-site"
    with FileLock(base / "phone-site.lock"):
        if not (site / MARK).is_file():
            isolated = ["unshare", "-n"] if shutil.which("unshare") else []
            cmd = [*isolated, sys.executable, "-m", "scorekeeper", "site", str(site)]
            ran = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", timeout=600)
            assert ran.returncode == 0, ran.stderr
            ran_json = json.dumps({"cmd": cmd[:2], "stdout": ran.stdout})
            (base / "phone-site.ran.json").write_text(ran_json, encoding="utf-8")
    return site


@pytest.fixture
def site_built(built_site: Path) -> dict[str, object]:
    """How the run's site was built: the command's first words and what it printed."""
    import json

    return dict(json.loads((built_site.parent / "phone-site.ran.json").read_text(encoding="utf-8")))
