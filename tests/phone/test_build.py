"""``scorekeeper site DIR``: what the phone's site holds, built from the installed packages
alone (no network: the run's build is made under ``unshare -n``), the same bytes every time.

The site is built once for the run (the ``built_site`` fixture, shared with the browser
tests of ``tests/e2e/test_site_browser.py``)."""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scorekeeper import DISTRIBUTION
from scorekeeper.site import build as site_build
from scorekeeper.site.build import ARCHIVE, BROWSER_PACKAGES, MARK
from scorekeeper.ui.server.guard import inline_script_hashes

#: Pyodide's environment, for the markers of the packages' requirements (flet-web's Pyodide is
#: Python 3.14 on Emscripten).
PYODIDE = {
    "platform_system": "Emscripten",
    "sys_platform": "emscripten",
    "os_name": "posix",
    "platform_machine": "wasm32",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "python_version": "3.14",
    "python_full_version": "3.14.2",
    "extra": "",
}


def _tree(root: Path) -> dict[str, str]:
    """Every file under ``root``: its path and the hash of its bytes."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _packages(site: Path) -> zipfile.ZipFile:
    """The app's zip (``main.py`` and the packages), opened."""
    return zipfile.ZipFile(io.BytesIO((site / ARCHIVE).read_bytes()))


def test_the_build_asks_nothing_of_any_network(site_built: dict[str, object]) -> None:
    """The run's site (``built_site``) was built by a new process in a network namespace of its
    own: no interface but a loopback that is down."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare here (Linux's util-linux): the site was built with the network in reach")
    assert site_built["cmd"] == ["unshare", "-n"]
    assert re.search(
        r"Built the phone's site in .*: \d+ files, \d+\.\d MB \(the app and its Python packages: ",
        str(site_built["stdout"]),
    )


def test_a_second_build_gives_the_same_bytes(built_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built again, every file is the same. The app's own modules (~760) are compiled again by
    a new Node.js process (a constant such as a frozenset could come out in another order); the
    standard library's bytecode is the first build's, made by the same ``compile.mjs``: its ~560
    modules would cost every run ~10 s more and prove nothing the app's do not."""
    with zipfile.ZipFile(built_site / "pyodide/python_stdlib.zip") as first:
        stdlib_pyc = {n: first.read(n) for n in first.namelist() if n.endswith(".pyc")}
    compile_modules = site_build.compile_modules
    seen: list[int] = []

    def app_compiled_again(groups, web):
        compiled, how = compile_modules({"app": groups["app"]}, web)
        assert compiled is not None, how
        seen.append(len(compiled["app"]))
        stdlib = {name: stdlib_pyc[name[:-3] + ".pyc"] for name in groups["stdlib"]}
        return {"stdlib": stdlib, "app": compiled["app"]}, how

    monkeypatch.setattr(site_build, "compile_modules", app_compiled_again)
    site_build.build(tmp_path / "again")
    assert seen and seen[0] > 500
    assert _tree(tmp_path / "again") == _tree(built_site)


def test_the_archive_is_made_to_be_reproducible(built_site: Path) -> None:
    packages = _packages(built_site)
    names = packages.namelist()
    assert "main.py" in names and names == sorted(names)
    for info in packages.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0) and info.external_attr == 0o644 << 16
        assert info.compress_type == zipfile.ZIP_DEFLATED  # zipimport inflates what it imports
        assert not info.filename.startswith("/") and ".." not in info.filename.split("/")
    blob = b"".join(packages.read(i) for i in packages.infolist())
    # no path of this machine: neither this checkout's nor the installed packages' folder
    for here in (
        Path(site_build.__file__).parents[2],
        Path(str(importlib.metadata.distribution("flet").locate_file(""))),
    ):
        assert str(here).encode() not in blob, here


def test_the_archive_holds_the_app_and_every_package_it_imports_in_the_browser(built_site: Path) -> None:
    assert "from scorekeeper.site.phone import run" in (_packages_main(built_site))
    names = set(_packages(built_site).namelist())
    assert {"scorekeeper/__init__.py", "scorekeeper/site/phone.py", "scorekeeper/ui/app/main.py"} <= names
    # every module of the package (the site's own build code and files aside)
    package = Path(site_build.__file__).parents[1]
    modules = {f"scorekeeper/{p.relative_to(package).as_posix()}" for p in package.rglob("*.py")}
    modules -= {"scorekeeper/site/build.py"}
    assert modules <= names and len(modules) > 100
    for top in (
        "flet/__init__.py",
        "msgpack/fallback.py",
        "repath.py",
        "six.py",
        "tinydb/__init__.py",
        "segno/__init__.py",
    ):
        assert top in names, top
    # no compiled code of this machine (msgpack's C half), no test helpers
    assert not [n for n in names if n.endswith((".so", ".pyd")) or "__pycache__" in n]
    assert not [n for n in names if n.startswith("flet/testing/")]
    # nothing for micropip to install at run time
    assert not {"requirements.txt", "pyproject.toml"} & names


def _packages_main(site: Path) -> str:
    return _packages(site).read("main.py").decode()


def test_every_module_is_compiled_ahead_for_the_phones_python(built_site: Path) -> None:
    """Node.js is on this machine: the app's modules and Pyodide's standard library are
    bytecode for Pyodide's Python (its magic number), the sources' hashes not checked again."""
    assert json.loads((built_site / MARK).read_text(encoding="utf-8"))["compiled"] is True
    packages = _packages(built_site)
    names = set(packages.namelist())
    sources = {n for n in names if n.endswith(".py")}
    assert {n[:-3] + ".pyc" for n in sources} <= names
    with zipfile.ZipFile(built_site / "pyodide/python_stdlib.zip") as stdlib:
        std = stdlib.namelist()
        assert not [n for n in std if n.endswith(".py")] and "asyncio/__init__.pyc" in std
        magic = stdlib.read("asyncio/__init__.pyc")[:4]
    assert magic != importlib.util.MAGIC_NUMBER  # Pyodide's Python is not this one
    for name in ("scorekeeper/registry.pyc", "flet/__init__.pyc"):
        pyc = packages.read(name)
        assert pyc[:4] == magic and int.from_bytes(pyc[4:8], "little") == 0b01  # hash-based, not checked


def test_the_browser_packages_are_what_the_requirements_need_under_pyodide() -> None:
    """:data:`BROWSER_PACKAGES` is the closure of scorekeeper's requirements with Pyodide's
    markers, less flet-web (the client, copied beside the archive), platformdirs (it only
    finds a laptop's data folder: the phone's store has its own) and filelock (the laptop's
    lock of the store: the phone's store holds a Web Lock, ``scorekeeper.site.disk``)."""
    needed: set[str] = set()
    todo = [DISTRIBUTION]
    while todo:
        name = todo.pop()
        for spec in importlib.metadata.requires(name) or []:
            req = Requirement(spec)
            if req.marker is not None and not Marker(str(req.marker)).evaluate(PYODIDE):
                continue
            dep = canonicalize_name(req.name)
            if dep in {"flet-web", "platformdirs", "filelock"} or dep in needed:
                continue
            needed.add(dep)
            todo.append(dep)
    assert needed == {canonicalize_name(n) for n in BROWSER_PACKAGES}


def test_the_page_runs_python_from_the_folder_it_is_in(built_site: Path) -> None:
    html = (built_site / "index.html").read_text(encoding="utf-8")
    assert "<base" not in html  # the folder may be served at any path
    assert html.index('<script src="site.js">') < html.index('<script src="python.js">')
    assert "<title>Scorekeeper</title>" in html and 'rel="manifest" href="manifest.json"' in html
    site_js = (built_site / "site.js").read_text(encoding="utf-8")
    archive_hash = hashlib.sha256((built_site / ARCHIVE).read_bytes()).hexdigest()[:16]
    assert f'"app.zip?v={archive_hash}"' in site_js  # a new archive is never an old copy
    assert "flet.pyodide = true" in site_js and 'flet.routeUrlStrategy = "hash"' in site_js
    assert "navigator.storage.persist()" in site_js and 'register("sw.js?renderer="' in site_js
    # Flutter's own service worker (a stub that unregisters itself) is neither registered nor shipped
    bootstrap = (built_site / "flutter_bootstrap.js").read_text(encoding="utf-8")
    load = bootstrap[bootstrap.index("_flutter.loader.load({") :]
    assert "onEntrypointLoaded" in load and "serviceWorker" not in load
    assert not (built_site / "flutter_service_worker.js").exists()
    # the Pyodide runtime, without its package installer: the archive has every package
    for f in ("pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "python-worker.js"):
        assert (built_site / f).is_file(), f
    assert not list((built_site / "pyodide").glob("*.whl"))
    fonts = json.loads((built_site / "assets/FontManifest.json").read_text(encoding="utf-8"))
    assert {"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]} in fonts
    # the page's own policy: nothing from anywhere else, on any web host
    html = (built_site / "index.html").read_text(encoding="utf-8")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert policy is not None and html.index(policy.group(0)) < html.index("<script")
    assert "default-src 'self'" in policy.group(1) and "connect-src 'self';" in policy.group(1)
    assert all(h in policy.group(1) for h in inline_script_hashes(html.encode()))
    # the fonts of TeX formulas are neither loaded nor shipped: no screen draws a formula
    assert not [f for f in fonts if "flutter_math_fork" in json.dumps(f)]
    assert not (built_site / "assets/packages/flutter_math_fork").exists()
    assert (built_site / "assets/fonts/roboto.woff2").is_file()


def test_the_site_is_installable_and_its_service_worker_keeps_every_file(built_site: Path) -> None:
    manifest = json.loads((built_site / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "Scorekeeper" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    sizes = set()
    for icon in manifest["icons"]:
        data = (built_site / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add((width, icon.get("purpose", "any")))
    assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= sizes
    sw = (built_site / "sw.js").read_text(encoding="utf-8")
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", sw, re.S).group(1))  # type: ignore[union-attr]
    on_disk = set(_tree(built_site))
    assert set(files) == (on_disk - {"sw.js", MARK}) | {"./"}
    version = re.search(r'const VERSION = "([0-9a-f]{64})";', sw).group(1)  # type: ignore[union-attr]
    assert json.loads((built_site / MARK).read_text(encoding="utf-8"))["version"] == version
    # nothing the phone never asks for
    assert not [f for f in on_disk if f.endswith((".symbols", ".map", ".whl", ".exe", ".bat"))]
    assert not (built_site / "canvaskit/wimp.wasm").exists()
    # issue 48: only the renderers a browser may pick, no asset of a package no screen uses
    assert not (built_site / "canvaskit/skwasm_heavy.wasm").exists()
    assert not [f for f in on_disk if f.startswith(("assets/packages/media_kit", "assets/packages/cupertino_icons"))]
    renderers = json.loads(re.search(r"const RENDERERS = (\{.*?\});", sw, re.S).group(1))  # type: ignore[union-attr]
    assert {f for fs in renderers.values() for f in fs} <= on_disk
    sizes = json.loads(re.search(r"const SIZES = (\{.*?\});", sw, re.S).group(1))  # type: ignore[union-attr]
    assert sizes["app.zip"] == (built_site / "app.zip").stat().st_size and set(sizes) == set(files)


def test_a_new_file_makes_a_new_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """The version (the service worker's cache name) changes with any file of the site."""
    files = {"a.js": b"1", "b/c.wasm": b"2"}
    assert site_build._version(files) == site_build._version(dict(files))
    assert site_build._version({**files, "a.js": b"3"}) != site_build._version(files)
    assert site_build._version({**files, "d": b""}) != site_build._version(files)


def test_a_folder_that_is_no_site_is_never_overwritten(tmp_path: Path, cli) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    ran = cli("site", tmp_path)
    assert ran.returncode == 2 and ran.stdout == ""
    assert (
        ran.stderr
        == f"error: {tmp_path} is not empty and holds no site built by Scorekeeper: give a new or empty folder\n"
    )
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine" and len(list(tmp_path.iterdir())) == 1
    file = tmp_path / "notes.txt"
    ran = cli("site", file)
    assert (
        ran.returncode == 2
        and ran.stderr == f"error: {file} is not a folder: give a new or empty folder for the site\n"
    )


def test_a_site_built_before_is_replaced_whole(
    built_site: Path, tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    (site / "left-over.txt").write_text("from an older build", encoding="utf-8")
    # the files of the site as built (a build costs half a minute: the second build above
    # checks that building gives them)
    files = {p.relative_to(built_site).as_posix(): p.read_bytes() for p in built_site.rglob("*") if p.is_file()}
    monkeypatch.setattr(site_build, "site_files", lambda: (files, "0" * 64, "compiled"))
    ran = cli("site", site)
    assert ran.returncode == 0, ran.stderr
    assert _tree(site) == _tree(built_site)
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no working folder left beside it


def test_the_sites_own_worker_runs_the_app_from_its_zip(built_site: Path) -> None:
    """The site's worker (not flet-web's) fetches ``app.zip`` while Pyodide loads and writes it
    where the bytecode says its modules are: nothing unpacked in Python, no micropip."""
    worker = (built_site / "python-worker.js").read_text(encoding="utf-8")
    assert 'const APP = "/home/pyodide/__pypackages__"' in worker and "FS.writeFile(APP" in worker
    assert site_build.WHERE["app"] == "/home/pyodide/__pypackages__/"
    assert "micropip.install" not in worker and "loadPackage" not in worker and "unpack_archive" not in worker


def test_building_the_site_loads_no_flet() -> None:
    """``scorekeeper site`` and the host's ``/app/`` build what the browser runs without loading
    Flet (nor the browser's side of the store) in the process that builds it."""
    from registry.test_layers import modules_after_importing

    loaded = modules_after_importing(["scorekeeper.cli", "scorekeeper.site.build", "scorekeeper.ui.server.phone_site"])
    assert "scorekeeper.site.build" in loaded
    assert not {m.split(".")[0] for m in loaded} & {"flet", "flet_web", "tinydb"}
    assert not loaded & {"scorekeeper.site.phone", "scorekeeper.site.browser", "scorekeeper.site.disk"}
