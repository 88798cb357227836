"""Scorekeeper as the package index gets it (issue 45, part 1): ``scorekeeper-table``.

The sdist and the wheel are built once for this module (``uv build``: the wheel from the
sdist, as an installer building from source would), their metadata checked by ``twine check``
and read back, and the wheel installed with its dependencies into a fresh venv outside the
source tree (``uv venv``, ``uv pip install``; about a second with uv's cache). Then, from a
folder outside the tree and with nothing of it on the path, the installed command scores a
record, builds the phone's site (under ``unshare -n`` where that works: no network at all)
and serves the table: its first screen over the app's own WebSocket, as a browser on the
host sees it. So every file the app needs at run time is in the wheel; the file-by-file
check says which one is missing if not. About 9 s here, two thirds of it the build and the
server's start.
"""

from __future__ import annotations

import email.parser
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import RECORDS, ROOT, web_server

import scorekeeper
from scorekeeper import DISTRIBUTION

pytestmark = pytest.mark.slow

WHEEL = f"{DISTRIBUTION.replace('-', '_')}-{scorekeeper.__version__}-py3-none-any.whl"
SDIST = f"{DISTRIBUTION.replace('-', '_')}-{scorekeeper.__version__}.tar.gz"


def uv() -> str:
    """The uv of this environment (the test extra installs it)."""
    from uv import find_uv_bin

    return str(find_uv_bin())


def run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    ran = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", timeout=600, **kw)
    assert ran.returncode == 0, f"{cmd}: exit {ran.returncode}\n{ran.stdout[-3000:]}\n{ran.stderr[-3000:]}"
    return ran


def outside_env() -> dict[str, str]:
    """The environment of a user's shell: nothing of this tree or of this venv on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONUTF8"] = "1"  # the record's names print the same on every system
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run([uv(), "build", "--quiet", "--out-dir", str(out), str(ROOT)], cwd=ROOT)
    assert {p.name for p in out.iterdir() if p.suffix in (".whl", ".gz")} == {SDIST, WHEEL}
    return out


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the commands of a fresh venv with the wheel installed."""
    home = tmp_path_factory.mktemp("installed") / "venv"
    run([uv(), "venv", "--quiet", "--python", sys.executable, str(home)], env=outside_env())
    scripts = home / ("Scripts" if os.name == "nt" else "bin")
    python = scripts / ("python.exe" if os.name == "nt" else "python")
    run([uv(), "pip", "install", "--quiet", "--python", str(python), str(dist / WHEEL)], env=outside_env())
    return scripts


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder outside the source tree, holding a record to score."""
    where = tmp_path_factory.mktemp("elsewhere")
    shutil.copy(RECORDS / "worked-example.json", where / "worked-example.json")
    return where


def scorekeeper_cmd(venv: Path) -> str:
    return str(venv / ("scorekeeper.exe" if os.name == "nt" else "scorekeeper"))


def test_the_sdist_and_the_wheel_pass_twine_check_and_name_scorekeeper_table(dist: Path) -> None:
    ran = run([sys.executable, "-m", "twine", "check", "--strict", str(dist / SDIST), str(dist / WHEEL)])
    assert ran.stdout.count("PASSED") == 2, ran.stdout
    with zipfile.ZipFile(dist / WHEEL) as z:
        info = f"{DISTRIBUTION.replace('-', '_')}-{scorekeeper.__version__}.dist-info"
        meta = email.parser.Parser().parsestr(z.read(f"{info}/METADATA").decode("utf-8"))
        entry_points = z.read(f"{info}/entry_points.txt").decode("utf-8")
    assert (meta["Name"], meta["Version"], meta["Requires-Python"]) == (DISTRIBUTION, scorekeeper.__version__, ">=3.11")
    assert meta["Description-Content-Type"] == "text/markdown"
    needs = {
        r.split(">")[0].split("<")[0].split(" ")[0] for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r
    }
    assert {"flet", "flet-web", "tinydb", "platformdirs", "filelock"} <= needs
    assert "scorekeeper = scorekeeper.cli:main" in entry_points
    with tarfile.open(dist / SDIST) as t:
        top = f"{DISTRIBUTION.replace('-', '_')}-{scorekeeper.__version__}"
        names = set(t.getnames())
        pkg_info = email.parser.Parser().parsestr(t.extractfile(f"{top}/PKG-INFO").read().decode("utf-8"))
    assert (pkg_info["Name"], pkg_info["Version"]) == (DISTRIBUTION, scorekeeper.__version__)
    assert {f"{top}/CHANGELOG.md", f"{top}/README.md", f"{top}/pyproject.toml"} <= names


def package_files() -> Iterator[str]:
    """Every file of the ``scorekeeper`` package in the source tree (no bytecode)."""
    root = ROOT / "scorekeeper"
    for p in root.rglob("*"):
        if p.is_file() and "__pycache__" not in p.parts:
            yield p.relative_to(ROOT).as_posix()


def test_the_wheel_holds_every_file_of_the_package(dist: Path) -> None:
    with zipfile.ZipFile(dist / WHEEL) as z:
        in_wheel = {n for n in z.namelist() if n.startswith("scorekeeper/")}
    missing = sorted(set(package_files()) - in_wheel)
    assert not missing, f"not in the wheel (add them to [tool.setuptools.package-data]): {missing}"
    assert {"scorekeeper/site/web/compile.mjs", "scorekeeper/site/web/icons/icon-512.png"} <= in_wheel


def test_the_installed_command_is_the_wheels_and_scores_a_record(venv: Path, elsewhere: Path) -> None:
    ran = run([scorekeeper_cmd(venv), "--version"], cwd=elsewhere, env=outside_env())
    assert ran.stdout == f"{DISTRIBUTION} {scorekeeper.__version__}\n"
    python = venv / ("python.exe" if os.name == "nt" else "python")
    where = run(
        [str(python), "-c", "import scorekeeper; print(scorekeeper.__file__)"], cwd=elsewhere, env=outside_env()
    )
    assert Path(where.stdout.strip()).is_relative_to(venv.parent), where.stdout  # not this tree's
    scored = run([scorekeeper_cmd(venv), "score", "worked-example.json"], cwd=elsewhere, env=outside_env())
    out = json.loads(scored.stdout)
    assert out["game"] == "all-fives" and out["scores"] == {"Ann": 15, "Ben": 15}


def no_network() -> list[str]:
    """``unshare -n`` (a network namespace with no interface up) where this machine allows it."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return []
    probe = subprocess.run([unshare, "-n", "true"], capture_output=True, timeout=30)
    return [unshare, "-n"] if probe.returncode == 0 else []


def test_the_installed_command_builds_the_phones_site_with_no_network(venv: Path, elsewhere: Path) -> None:
    """Node.js is kept out of sight (the path holds the venv's commands alone): compiling the
    Python ahead with it takes 12 s here, and tests/phone builds the site with it already."""
    site = elsewhere / "site"
    env = dict(outside_env(), PATH=str(venv))
    ran = run([*no_network(), scorekeeper_cmd(venv), "site", str(site)], cwd=elsewhere, env=env)
    assert ran.stdout.startswith(f"Built the phone's site in {site}: "), ran.stdout
    assert "no Node.js here" in ran.stdout
    mark = json.loads((site / "scorekeeper-site.json").read_text(encoding="utf-8"))
    assert mark["scorekeeper"] == scorekeeper.__version__
    for name in ("index.html", "app.zip", "site.js", "sw.js", "python-worker.js", "icons/icon-512.png"):
        assert (site / name).is_file(), name


def test_the_installed_command_serves_the_first_screen(venv: Path, elsewhere: Path) -> None:
    from e2e import stranger
    from e2e.harness import free_port

    port = free_port()
    log = elsewhere / "web.log"
    cmd = [scorekeeper_cmd(venv), "--db", str(elsewhere / "db"), "web", "--no-browser", "--host", "127.0.0.1"]
    with web_server([*cmd, "--port", str(port)], port, log, cwd=elsewhere, env=outside_env()) as page:
        assert b"flutter_bootstrap.js" in page  # Flet's page, its client from the installed flet-web
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/main.dart.js", timeout=30) as r:
            assert r.status == 200 and len(r.read()) > 1_000_000
        with stranger.open_ws("127.0.0.1", port) as ws:  # the app's Python: the host's Home
            ws.sendall(stranger.register())
            assert stranger.read_until(ws, (stranger.HOST_WORDS,), 30) == stranger.HOST_WORDS
    said = log.read_text(encoding="utf-8", errors="replace")
    assert said.startswith(f"Scorekeeper is served at http://127.0.0.1:{port}/"), said
    assert "Traceback" not in said, said
