"""The house rules of the layout: the engines know nothing of Flet, TinyDB, the store or
the app (each game's ``entries.py`` and ``game.py`` included: the codec bases are
:mod:`scorekeeper.codec`'s), the view-models know nothing of Flet, and no module of the
app grows past about 400 lines."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

from support import ROOT

#: What every game shares and no game package holds: the registry and the bases of a game.
SHARED = [
    "scorekeeper.registry",
    "scorekeeper.codec",
    "scorekeeper.envelope",
    "scorekeeper.setup",
    "scorekeeper.scored",
    "scorekeeper.dominoes",
    "scorekeeper.stats.facts",
    "scorekeeper.tally.svg",
    "scorekeeper.events",
]
#: The app's folders of screens (the server's modules may load anything).
SCREEN_FOLDERS = [p for p in sorted((ROOT / "scorekeeper" / "ui").iterdir()) if p.is_dir() and p.name != "server"]
#: The modules of the screens' folders that are Flet's: the views (``*view.py``), a game's
#: screens for the shell, and the widgets, panels, tiles and types they draw with.
FLET_MODULES = {"screens", "panels", "tiles", "widgets", "typed", "common", "app"}


def view_models() -> list[str]:
    """Every module of the app's screens' folders but the views and Flet's helpers
    (:data:`FLET_MODULES`): a new game's form and table among them, with no edit here."""
    return [
        f"scorekeeper.ui.{folder.name}.{path.stem}"
        for folder in SCREEN_FOLDERS
        for path in sorted(folder.glob("*.py"))
        if path.stem != "__init__" and not path.stem.endswith("view") and path.stem not in FLET_MODULES
    ]


def game_packages() -> list[str]:
    """The package of every game built in (the registry's ``BUILTIN``)."""
    from scorekeeper import registry

    return [reg.engine.rsplit(".", 1)[0] for reg in registry.BUILTIN.values()]


#: What no game package may load: the UI toolkit, the database, the store and the app.
NOT_IN_A_GAME = ("flet", "flet_web", "tinydb", "scorekeeper.store", "scorekeeper.ui")


def modules_after_importing(modules: list[str]) -> set[str]:
    """Every module a fresh interpreter has loaded after importing ``modules``."""
    code = "import sys\n" + "".join(f"import {m}\n" for m in modules) + "print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(out.stdout.split())


def loaded_after_importing(modules: list[str]) -> set[str]:
    """The top-level packages a fresh interpreter has loaded after importing ``modules``."""
    return {name.split(".")[0] for name in modules_after_importing(modules)}


def forbidden(loaded: set[str]) -> set[str]:
    return {m for m in loaded if any(m == f or m.startswith(f + ".") for f in NOT_IN_A_GAME)}


def game_modules() -> list[str]:
    """Every module of every game package (each registered game's, and the dominoes they share)."""
    packages = ["scorekeeper.dominoes", "scorekeeper.events", *game_packages()]
    out = []
    for name in packages:
        out.append(name)
        path = ROOT / "scorekeeper" / name.split(".")[1]
        out.extend(info.name for info in pkgutil.walk_packages([str(path)], f"{name}."))
    return out


#: What knows nothing of Flet or TinyDB: what every game shares and every module of every game.
ENGINES = SHARED + game_modules()
#: The view-models: no Flet, nothing of the server.
VIEW_MODELS = view_models()


def test_the_engines_import_neither_flet_nor_tinydb():
    loaded = loaded_after_importing(ENGINES)
    assert "scorekeeper" in loaded
    assert not loaded & {"flet", "flet_web", "tinydb"}
    assert forbidden(modules_after_importing(ENGINES)) == set()


def test_no_module_of_a_game_package_loads_the_store_the_ui_tinydb_or_flet():
    """Every module of every game package, walked in one fresh interpreter: what they load
    together is what any one of them loads and more, so none of them loads these."""
    modules = game_modules()
    assert len(modules) > 30 and "scorekeeper.allfives.entries" in modules and "scorekeeper.broadway.game" in modules
    assert "scorekeeper.events.standings" in modules and "scorekeeper.events.pairing" in modules
    loaded = modules_after_importing(modules)
    assert set(modules) <= loaded
    assert forbidden(loaded) == set()


def test_the_check_itself_sees_the_store():
    assert forbidden(modules_after_importing(["scorekeeper.store"])) >= {"scorekeeper.store", "tinydb"}


def test_the_view_models_import_no_flet():
    loaded = loaded_after_importing(VIEW_MODELS)
    assert "tinydb" in loaded  # they reach the store
    assert not loaded & {"flet", "flet_web"}


def test_the_view_models_and_the_shell_import_nothing_of_the_server():
    """The shell is handed the hub, the gate and the browsers' Visitor by whoever starts the
    app (``scorekeeper.ui.server.shared``): no view-model loads a module of the server."""
    loaded = modules_after_importing(VIEW_MODELS)
    assert "scorekeeper.ui.shell.base" in loaded and "scorekeeper.ui.shell.roles" in loaded
    assert {m for m in loaded if m == "scorekeeper.ui.server" or m.startswith("scorekeeper.ui.server.")} == set()


def test_no_module_of_the_app_is_over_about_400_lines():
    sizes = {
        p.relative_to(ROOT): len(p.read_text(encoding="utf-8").splitlines())
        for p in (ROOT / "scorekeeper" / "ui").rglob("*.py")
    }
    assert len(sizes) > 20
    assert {str(p): n for p, n in sizes.items() if n > 420} == {}


def test_every_game_of_the_registry_has_the_same_engine_package_shape():
    from scorekeeper import registry

    for game in registry.games():
        package = Path(ROOT, "scorekeeper", game.id.replace("-", ""))
        present = {p.stem for p in package.glob("*.py")}
        assert {"engine", "record", "text", "timeline", "entries", "game", "stats", "rows"} <= present, game.id


def test_the_all_fives_parts_use_only_the_tables_public_interface():
    """Entering a play, claims, corrections and the hand end reach the table through what it
    offers its parts (``change``, ``done``, ``redraw``, ``drafts`` ...), never its private members."""
    import re

    parts = [f"allfives/{p}" for p in ("part", "play", "claims", "corrections", "hand_end")] + ["shell/asks"]
    private = re.compile(r"\b(?:self\.t|table|t)\._[a-z]\w*")
    found = {p: private.findall((ROOT / "scorekeeper" / "ui" / f"{p}.py").read_text(encoding="utf-8")) for p in parts}
    assert {p: hits for p, hits in found.items() if hits} == {}
