"""``scorekeeper site DIR``: the static site that runs Scorekeeper in a phone's browser.

Everything comes from what is installed here; nothing is downloaded (the build passes with
no network at all, under ``unshare -n``):

* Flet's web client and the Pyodide runtime, copied from the ``flet-web`` package's ``web``
  folder, less what a browser never asks for (source maps, debug symbols, Pyodide's
  command-line launchers and its package installer, the renderers Flet never picks);
* ``app.zip``: ``main.py`` and the ``scorekeeper`` package and every pure-Python package it
  needs in the browser (:data:`BROWSER_PACKAGES`; msgpack's pure-Python half only), which
  Python imports from as it is (``zipimport``: a module is inflated when it is imported).
  The site's Python worker (``web/python-worker.js``, in place of flet-web's, which unpacks a
  ``.tar.gz`` in Python and asks micropip for requirements at each start) fetches it while
  Pyodide loads and writes it into Pyodide's file system: nothing is unpacked, nothing
  installed;
* with Node.js on the machine, every module (the app's and Pyodide's standard library)
  compiled ahead to bytecode by the very Pyodide of the site run in Node.js
  (``web/compile.mjs``): the phone does not compile ~1,000 modules at each start;
* ``python.js``, Flet's bridge to the Python worker, which starts the worker as the page
  loads, while Flutter loads its engine (Flet's starts it once Flutter has loaded), and
  ``python-worker.js``, the worker;
* ``index.html`` patched: no absolute ``<base>``, ``site.js`` before Flet's scripts (where
  the runtime and the archive are, relative to the page, so the folder works at any path
  of any web server), Flutter's own service worker left out;
* ``manifest.json`` (installable: name, icons, ``start_url``, ``display: standalone``), the
  icons, and ``sw.js``, the service worker that keeps the whole site for offline starts
  (its cache is named after :attr:`Site.version`, a hash of every other file).

The same installed files give the same bytes: the zip's entries are sorted, with fixed
times and modes; no absolute path is written anywhere. The folder is written beside ``DIR``
and put in its place at the end.
"""

from __future__ import annotations

import fnmatch
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from scorekeeper import __version__
from scorekeeper.errors import SiteError
from scorekeeper.ui.server.fonts import FONTS_LEFT_OUT, patch_fonts
from scorekeeper.ui.server.guard import csp, inline_script_hashes

__all__ = ["ARCHIVE", "BROWSER_PACKAGES", "MARK", "RENDERERS", "Site", "app_archive", "build", "site_files"]

#: The distributions the browser imports besides ``scorekeeper`` itself: what ``flet``,
#: ``tinydb`` and ``segno`` need under Pyodide, and the events' pairing (``caissify-pairings``
#: and ``networkx``, imported only when an event's rounds are drawn) (Flet's ``oauthlib`` and
#: ``httpx`` are only for other platforms; ``platformdirs`` only finds the laptop's data
#: directory; ``flet-web`` is the client copied beside the archive). ``tests/phone`` checks
#: this against the packages' own metadata.
BROWSER_PACKAGES = ("caissify-pairings", "flet", "msgpack", "networkx", "repath", "segno", "six", "tinydb")

#: The app's zip in the site.
ARCHIVE = "app.zip"

#: The file that marks a folder as a site this command built (so a rebuild may replace it).
MARK = "scorekeeper-site.json"

#: The name the app's zip has in Pyodide's file system (``/home/pyodide/__pypackages__``, put
#: on ``sys.path`` by the site's worker, as Flet's worker names its packages' folder).
PACKAGES_ZIP = "__pypackages__"

#: Where the modules are on the phone (the names their bytecode gives in a traceback).
WHERE = {"stdlib": "/lib/python314.zip/", "app": f"/home/pyodide/{PACKAGES_ZIP}/"}

#: The module Pyodide runs (``flet.pythonModuleName``), at the archive's top.
MAIN = b'''"""Scorekeeper in the browser: Pyodide runs this module (see scorekeeper.site.phone)."""

from scorekeeper.site.phone import run

run()
'''

#: What of flet-web's ``web`` folder the site leaves out (shell patterns on the path).
LEFT_OUT = (
    "flutter.js.map",
    "flutter_service_worker.js",  # Flutter's own (a stub that unregisters itself): sw.js is ours
    "python-worker.js",  # the site's own worker replaces it
    "app.tar.gz",
    "*.symbols",  # debug symbols of the renderers
    "canvaskit/wimp.*",  # renderers Flet's bootstrap never picks (no ``enableWimp``, no variant asked)
    "canvaskit/experimental_webparagraph/*",
    # skwasm's "heavy" build is for a Chromium without image decoders or break iterators, and
    # the wasm build is picked only where WebAssembly GC is (Chromium 119 and later: both there)
    "canvaskit/skwasm_heavy.*",
    # assets of Flutter packages Flet bundles that no screen of the app uses (video, sound
    # recording, maps, the Cupertino icons font: left out of the font list too)
    "assets/packages/media_kit/*",
    "assets/packages/record_web/*",
    "assets/packages/flutter_map/*",
    "assets/packages/cupertino_icons/*",
    "pyodide/python",  # Pyodide's command-line launchers and type declarations
    "pyodide/python.bat",
    "pyodide/python.exe",
    "pyodide/python_cli_entry.mjs",
    "pyodide/*.d.ts",
    "pyodide/package.json",
    "pyodide/pyodide.js",  # the classic-script variant: the worker imports pyodide.mjs
    "pyodide/*.whl",  # micropip and packaging: nothing is installed at run time
    "icons/icon-*",  # Flet's logo: the site has its own icons (Flet's loading animation stays)
    "icons/apple-touch-icon-*",
    "favicon.png",
    "manifest.json",
    f"assets/{FONTS_LEFT_OUT}*",  # the fonts of TeX formulas (left out of the font list too)
)

#: The files of each of Flutter's renderers a browser may draw with (one only: the page tells
#: the service worker which, and it keeps that one's files; see ``web/sw.js``): the wasm build
#: with skwasm (Chromium), the JavaScript build with CanvasKit (Safari, Firefox) or with
#: Chromium's smaller CanvasKit (a Chromium without WebAssembly GC or WebGL).
RENDERERS = {
    "skwasm": ("main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm"),
    "canvaskit": ("main.dart.js", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm"),
    "canvaskit-chromium": ("main.dart.js", "canvaskit/chromium/canvaskit.js", "canvaskit/chromium/canvaskit.wasm"),
}

#: What of a package the archive leaves out (shell patterns on the path in ``__pypackages__``).
PACKAGE_LEFT_OUT = (
    "*/__pycache__/*",
    "*.pyc",
    "*.so",
    "*.pyd",
    "*.pyx",
    "*.pxd",
    "*.h",
    "*.c",
    "*.cpp",
    "flet/testing/*",  # Flet's test helpers and pytest plugin
    "flet/pytest_plugin.py",
    "networkx/*/tests/*",  # networkx's own tests (3 MB)
    "networkx/tests/*",
    "scorekeeper/site/web/*",  # the site's own files: beside the archive, not in it
    "scorekeeper/site/build.py",
)

#: The files of the scorekeeper package the archive takes (its Python and its data).
PACKAGE_SUFFIXES = (".py", ".json", ".typed", ".js")


@dataclass(frozen=True)
class Site:
    """A built site: its folder, its files (path -> bytes) and its version."""

    path: Path
    files: dict[str, bytes]
    version: str
    compiled: str  # how its Python was compiled (ahead, by Node.js, or not)

    @property
    def size(self) -> int:
        return sum(len(b) for b in self.files.values())

    def summary(self) -> str:
        """What ``scorekeeper site`` prints."""
        archive = len(self.files[ARCHIVE])
        return (
            f"Built the phone's site in {self.path}: {len(self.files)} files, {_mb(self.size)} "
            f"(the app and its Python packages: {_mb(archive)}); version {self.version[:12]}.\n"
            f"{self.compiled}.\n"
            "Serve the folder from any web server (https, or this machine's localhost, for the offline install); "
            "see docs/phone.md."
        )


def _mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB"


def _web_dir() -> Path:
    """flet-web's ``web`` folder (the client and the Pyodide runtime), found without importing it."""
    spec = importlib.util.find_spec("flet_web")
    if spec is None or not spec.submodule_search_locations:
        raise SiteError("the flet-web package is not installed: install Scorekeeper with its dependencies")
    web = Path(next(iter(spec.submodule_search_locations))) / "web"
    for needed in ("index.html", "python-worker.js", "flutter_bootstrap.js", "pyodide/pyodide.mjs"):
        if not (web / needed).is_file():
            raise SiteError(f"flet-web's web client has no {needed} ({web}): reinstall flet-web")
    return web


def _left_out(rel: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(rel, p) for p in patterns)


def _walk(root: Path) -> Iterator[tuple[str, Path]]:
    """Every file under ``root``, as (posix path relative to it, path), sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in filenames:
            p = Path(dirpath) / name
            found.append((p.relative_to(root).as_posix(), p))
    return iter(sorted(found))


def _package_files() -> Iterator[tuple[str, Path]]:
    """The files that go into ``__pypackages__``: the scorekeeper package (from its folder,
    which an editable install does not list) and those of :data:`BROWSER_PACKAGES` (from their
    installed RECORD), as (path inside ``__pypackages__``, path on disk)."""
    spec = importlib.util.find_spec("scorekeeper")
    assert spec is not None and spec.origin is not None
    own = Path(spec.origin).parent
    for rel, p in _walk(own):
        name = f"scorekeeper/{rel}"
        if p.suffix in PACKAGE_SUFFIXES and not _left_out(name, PACKAGE_LEFT_OUT):
            yield name, p
    for dist_name in BROWSER_PACKAGES:
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            raise SiteError(
                f"the {dist_name} package is not installed: install Scorekeeper with its dependencies"
            ) from None
        files = dist.files
        if not files:
            raise SiteError(f"the {dist_name} package does not list its files (no RECORD): reinstall it with pip")
        for f in sorted(files, key=str):
            member = PurePosixPath(f.as_posix())
            if member.parts[0] == ".." or member.parts[0].endswith((".dist-info", ".egg-info", ".data")):
                continue
            name = member.as_posix()
            if _left_out(name, PACKAGE_LEFT_OUT):
                continue
            path = Path(str(dist.locate_file(f)))
            if not path.is_file():
                raise SiteError(f"the {dist_name} package lists {name} but it is missing ({path}): reinstall it")
            yield name, path


def _packages() -> dict[str, bytes]:
    """What goes into ``__pypackages__.zip``: path inside it -> bytes."""
    entries: dict[str, bytes] = {}
    for name, path in _package_files():
        if name in entries:
            raise SiteError(f"two packages both hold {name}: the archive cannot take both")
        entries[name] = path.read_bytes()
    return entries


def _zip(entries: dict[str, bytes], compress: int) -> bytes:
    """A zip of ``entries`` in their order, with fixed times and modes: the same bytes each time."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = compress
            info.create_system = 3
            info.external_attr = 0o644 << 16
            z.writestr(info, data, compresslevel=9 if compress == zipfile.ZIP_DEFLATED else None)
    return out.getvalue()


def app_archive(app: dict[str, bytes], compiled: dict[str, bytes] | None) -> bytes:
    """``app.zip``: ``app`` (``main.py`` and the packages), each module with its bytecode beside
    it when ``compiled`` has it, sorted; deflated (zipimport inflates a module as it imports it)."""
    entries = dict(app)
    if compiled is not None:
        entries.update({name[:-3] + ".pyc": pyc for name, pyc in compiled.items() if name in app})
    return _zip(dict(sorted(entries.items())), zipfile.ZIP_DEFLATED)


def stdlib_zip(original: bytes, compiled: dict[str, bytes]) -> bytes:
    """Pyodide's standard library with every module as bytecode alone (what Pyodide would
    otherwise compile at every start), the other files as they are."""
    entries: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(original)) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            name = info.filename
            if name in compiled:
                entries[name[:-3] + ".pyc"] = compiled[name]
            else:
                entries[name] = z.read(info)
    return _zip(entries, zipfile.ZIP_DEFLATED)


def _modules(entries: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data for name, data in entries.items() if name.endswith(".py")}


def compile_modules(groups: dict[str, dict[str, bytes]], web: Path) -> tuple[dict[str, dict[str, bytes]] | None, str]:
    """Every module of ``groups`` (group -> path -> source) compiled to bytecode by the Pyodide
    of ``web`` run in Node.js, if the machine has Node.js (none: None). Returns the bytecode
    (group -> path of the .py -> .pyc bytes) and a line on how it went."""
    node = shutil.which("node")
    if node is None:
        return (
            None,
            "no Node.js here: the phone compiles the Python at each start (slower); install Node.js and build again",
        )
    with tempfile.TemporaryDirectory(prefix="scorekeeper-site-") as tmp:
        work = Path(tmp)
        for group, modules in groups.items():
            for name, data in modules.items():
                p = work / "src" / group / name
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(data)
        try:
            ran = subprocess.run(
                [
                    node,
                    str(Path(__file__).parent / "web" / "compile.mjs"),
                    str(web / "pyodide"),
                    str(work),
                    json.dumps(WHERE),
                ],
                capture_output=True,
                text=True,
                timeout=900,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, f"Node.js could not compile the Python ({e}): the phone compiles it at each start (slower)"
        if ran.returncode != 0:
            why = (ran.stderr.strip().splitlines() or ["no message"])[-1]
            return None, f"Node.js could not compile the Python ({why}): the phone compiles it at each start (slower)"
        out: dict[str, dict[str, bytes]] = {}
        for group, modules in groups.items():
            out[group] = {name: (work / "pyc" / group / name).with_suffix(".pyc").read_bytes() for name in modules}
    return out, f"Python compiled ahead for Pyodide ({sum(len(m) for m in groups.values())} modules, with {node})"


def _once(pattern: str, repl: str, text: str, what: str, flags: int = 0) -> str:
    """``text`` with the one match of ``pattern`` replaced; flet-web's file changed otherwise."""
    new, n = re.subn(pattern, lambda m: repl, text, flags=flags)
    if n != 1:
        raise SiteError(
            f"flet-web's {what} is not as expected ({n} matches of {pattern!r}): this Flet is not supported"
        )
    return new


def patch_index(html: str) -> str:
    """Flet's ``index.html`` for the site: no absolute ``<base>`` (the folder may be served at any
    path), the site's name, its manifest and icons, and ``site.js`` in place of Flet's
    per-build configuration."""
    html = _once(r'\s*<base href="/">', "", html, "index.html")
    html = _once(r"<title>[^<]*</title>", "<title>Scorekeeper</title>", html, "index.html")
    html = _once(
        r'<meta name="apple-mobile-web-app-title" content="[^"]*">',
        '<meta name="apple-mobile-web-app-title" content="Scorekeeper">',
        html,
        "index.html",
    )
    html = _once(
        r'<meta name="description" content="[^"]*">',
        '<meta name="description" content="Scorekeeper: scores for domino and card games at the table.">\n'
        '  <meta name="theme-color" content="#00796B">',
        html,
        "index.html",
    )
    html = _once(
        r'<link rel="apple-touch-icon" href="[^"]*">',
        '<link rel="apple-touch-icon" href="icons/apple-touch-icon-180.png">',
        html,
        "index.html",
    )
    html = _once(
        r'<link rel="icon" type="image/png" href="favicon.png" ?/>',
        '<link rel="icon" type="image/png" href="icons/favicon-32.png">',
        html,
        "index.html",
    )
    html = _once(r"<!-- fletAppConfig -->", '<script src="site.js"></script>', html, "index.html")
    return html


def with_policy(html: str) -> str:
    """``index.html`` with the Content-Security-Policy the table's server gives the site (see
    :func:`scorekeeper.ui.server.guard.csp`) in a ``<meta>``, so that a site on any web host
    fetches nothing from anywhere else either: Flutter's client asks a CDN for a runtime of
    animations (Rive) at every start, which the app never draws. (``frame-ancestors`` is for a
    header only.)"""
    rules = csp(inline_script_hashes(html.encode("utf-8")), None, site=True).split("; ")
    policy = "; ".join(r for r in rules if not r.startswith("frame-ancestors"))
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    return _once(r'<meta charset="UTF-8">', f'<meta charset="UTF-8">\n  {meta}', html, "index.html")


def patch_bootstrap(js: str) -> str:
    """Flutter's bootstrap without its service worker (a stub that would unregister ours)."""
    return _once(r"serviceWorkerSettings:\s*\{[^{}]*\},", "", js, "flutter_bootstrap.js")


def manifest() -> bytes:
    """The web app manifest: what "Add to Home screen" installs."""
    icons = [
        {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "icons/icon-maskable-192.png", "sizes": "192x192", "type": "image/png", "purpose": "maskable"},
        {"src": "icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ]
    data = {
        "id": "./",
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": "Scores for domino and card games at the table, on this phone alone.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#FFFFFF",
        "theme_color": "#00796B",
        "icons": icons,
        "prefer_related_applications": False,
    }
    return (json.dumps(data, indent=2) + "\n").encode()


def _own(name: str) -> bytes:
    """One of the site's own files (``scorekeeper/site/web``)."""
    return (Path(__file__).parent / "web" / name).read_bytes()


def site_files() -> tuple[dict[str, bytes], str, str]:
    """Every file of the site (path -> bytes), its version and how its Python was compiled,
    built in memory."""
    web = _web_dir()
    files: dict[str, bytes] = {}
    for rel, path in _walk(web):
        if not _left_out(rel, LEFT_OUT):
            files[rel] = path.read_bytes()
    files["index.html"] = with_policy(patch_index(files["index.html"].decode("utf-8"))).encode("utf-8")
    files["flutter_bootstrap.js"] = patch_bootstrap(files["flutter_bootstrap.js"].decode("utf-8")).encode("utf-8")
    files["assets/FontManifest.json"] = patch_fonts(files["assets/FontManifest.json"])
    app = {"main.py": MAIN, **_packages()}
    stdlib_name = "pyodide/python_stdlib.zip"
    with zipfile.ZipFile(io.BytesIO(files[stdlib_name])) as z:
        stdlib = {i.filename: z.read(i) for i in z.infolist() if i.filename.endswith(".py")}
    compiled, how = compile_modules({"stdlib": stdlib, "app": _modules(app)}, web)
    if compiled is not None:
        files[stdlib_name] = stdlib_zip(files[stdlib_name], compiled["stdlib"])
    archive = app_archive(app, None if compiled is None else compiled["app"])
    files[ARCHIVE] = archive
    files["manifest.json"] = manifest()
    for rel, path in _walk(Path(__file__).parent / "web" / "icons"):
        files[f"icons/{rel}"] = path.read_bytes()
    files["python.js"] = _own("python.js")  # Flet's bridge, starting Python while Flutter loads
    files["python-worker.js"] = _own("python-worker.js")
    site_js = _own("site.js").decode("utf-8").replace("@ARCHIVE_HASH@", hashlib.sha256(archive).hexdigest()[:16])
    files["site.js"] = site_js.encode("utf-8")
    version = _version(files)
    cached = sorted(files) + ["./"]  # the folder itself: the page a start opens
    files["sw.js"] = (
        _own("sw.js")
        .decode("utf-8")
        .replace("@VERSION@", version)
        .replace('"@FILES@"', json.dumps(cached, indent=0))
        .replace('"@SIZES@"', json.dumps({f: len(files[f]) for f in sorted(files)} | {"./": len(files["index.html"])}))
        .replace('"@RENDERERS@"', json.dumps({r: list(fs) for r, fs in RENDERERS.items()}))
        .encode("utf-8")
    )
    files[MARK] = (
        json.dumps(
            {"scorekeeper": __version__, "version": version, "files": len(files) + 1, "compiled": compiled is not None},
            indent=2,
        )
        + "\n"
    ).encode()
    return files, version, how


def _version(files: dict[str, bytes]) -> str:
    """A hash of every file's path and bytes: a new version of the site whenever one changes."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return h.hexdigest()


def _check_dest(dest: Path) -> None:
    """``dest`` may be written: missing, empty, or a site built before (it is replaced)."""
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        raise SiteError(f"{dest} is not a folder: give a new or empty folder for the site")
    if dest.is_dir() and any(dest.iterdir()) and not (dest / MARK).is_file():
        raise SiteError(f"{dest} is not empty and holds no site built by Scorekeeper: give a new or empty folder")


def build(dest: str | os.PathLike[str]) -> Site:
    """Build the site into ``dest`` (missing, empty, or a site built before, which is replaced)."""
    target = Path(dest)
    _check_dest(target)
    files, version, how = site_files()
    parent = target.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        work = parent / f".{target.name}.building-{os.getpid()}"
        if work.exists():
            shutil.rmtree(work)
        for rel, data in files.items():
            p = work / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        old = parent / f".{target.name}.old-{os.getpid()}"
        if target.exists():
            target.rename(old)
        work.rename(target)
        if old.exists():
            shutil.rmtree(old)
    except OSError as e:
        raise SiteError(f"cannot write the site to {target}: {e.strerror or e}") from None
    return Site(target, files, version, how)
