"""The house rules of the layout: the engines know nothing of Flet, TinyDB, the store or
the app (each game's ``entries.py`` and ``game.py`` included: the codec bases are
:mod:`scorekeeper.codec`'s), the view-models know nothing of Flet, and no module takes a
private name of another."""

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
#: screens for the shell, the widgets, panels, tiles and types they draw with, and the app's
#: Flet entry point (``app/main.py``).
FLET_MODULES = {
    "screens",
    "panels",
    "tiles",
    "widgets",
    "typed",
    "common",
    "app",
    "main",
    "fletdiff",
    "fletencode",
    "fletinit",
}


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
    assert "scorekeeper.ui.shell.base" in loaded and "scorekeeper.ui.access.roles" in loaded
    assert {m for m in loaded if m == "scorekeeper.ui.server" or m.startswith("scorekeeper.ui.server.")} == set()


def test_every_game_of_the_registry_has_the_same_engine_package_shape():
    from scorekeeper import registry

    for game in registry.games():
        package = Path(ROOT, "scorekeeper", game.id.replace("-", ""))
        present = {p.stem for p in package.glob("*.py")}
        assert {"engine", "record", "text", "timeline", "entries", "game", "stats", "rows"} <= present, game.id


def test_the_all_fives_parts_use_only_the_tables_public_interface():
    """Entering a play, claims, corrections and the hand end (and a table's questions of a
    finished match) reach the table through a door: a Protocol listing the few members they
    may use (``TableDoor``, ``AskDoor``; every game's hand as points: ``EntryDoor``). Every member used on the door is one of its members;
    no part holds the table (nor imports its module): a sibling is handed in."""
    import ast

    doors = {"allfives/part": "TableDoor", "shell/asks": "AskDoor", "shell/points": "EntryDoor"}
    parts = {f"allfives/{p}": "TableDoor" for p in ("part", "play", "claims", "corrections", "hand_end")}
    parts["shell/asks"] = "AskDoor"
    parts["shell/points"] = "EntryDoor"  # a hand entered as points, an adjustment: every game's
    members: dict[str, set[str]] = {}
    for module, door in doors.items():
        tree = ast.parse((ROOT / "scorekeeper" / "ui" / f"{module}.py").read_text(encoding="utf-8"))
        (protocol,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == door]
        members[door] = {n.name for n in protocol.body if isinstance(n, ast.FunctionDef)} | {
            n.target.id for n in protocol.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
        }
    assert {"change", "redraw", "error"} <= members["TableDoor"] and len(members["TableDoor"]) < 30
    outside: dict[str, set[str]] = {}
    for module, door in parts.items():
        tree = ast.parse((ROOT / "scorekeeper" / "ui" / f"{module}.py").read_text(encoding="utf-8"))
        used = {
            n.attr
            for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and ast.unparse(n.value) in ("self.door", "door")
        }
        held = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and ast.unparse(n.value) == "self"}
        imports = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert used, module
        outside[module] = (
            (used - members[door]) | (held & {"t", "table"}) | (imports & {"scorekeeper.ui.allfives.table"})
        )
    assert {m: names for m, names in outside.items() if names} == {}


def _defined_here(tree) -> set[str]:
    """The names a module defines itself: its functions, classes and the names it binds, and
    the attributes it sets on ``self``/``cls`` (a Protocol's declarations are another's)."""
    import ast

    protocols = {
        id(stmt)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("Protocol") for b in node.bases)
        for stmt in node.body
    }
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and id(node) in protocols:
            continue
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _is_own(node.value):
            names.add(node.attr)
    for node in ast.walk(tree):  # a Protocol's declared members are not its module's own
        if isinstance(node, ast.AnnAssign) and id(node) in protocols and isinstance(node.target, ast.Name):
            names.discard(node.target.id)
    return names


def _is_own(value) -> bool:
    """``self``, ``cls`` or ``super()``: the object's own members."""
    import ast

    if isinstance(value, ast.Name):
        return value.id in ("self", "cls")
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_reaches(package: Path) -> list[str]:
    """Every private name a module of ``package`` takes from another module: ``from m import
    _x``, and ``obj._x`` where ``obj`` is not ``self``/``cls``/``super()`` and ``_x`` is not
    a name the module defines itself (a friend of its own class may use it)."""
    import ast

    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        own = _defined_here(tree)
        where = path.relative_to(package.parent).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                found += [
                    f"{where}:{node.lineno}: from {node.module} import {a.name}" for a in node.names if _private(a.name)
                ]
            elif isinstance(node, ast.Attribute) and _private(node.attr) and not _is_own(node.value):
                if node.attr not in own:
                    found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


#: The private names of Flet's that ``fletdiff.py`` and ``fletencode.py`` use (those their
#: stand-ins' originals use; ``_value_`` is what an enumeration's ``value`` reads).
FLETS = {
    "_configure_dataclass",
    "_control_setattr",
    "_parent",
    "_frozen",
    "_before_update_safe",
    "_dirty",
    "_removed_dataclasses",
    "_added_dataclasses",
    "_get_root_dataclass_field",
    "_UNSET",
    "_value_",
    "_compile_class_spec",
    "_REPORTED_VALIDATION_ERRORS_KEY",
    "_check",
}


def test_no_module_takes_a_private_name_of_another():
    """A private name (``_x``) is its module's: no module of the package imports one from
    another, nor reaches into another module's object (``store._index``, ``table._match``).
    What a module needs of another is public, or handed to it (the store's ``find(record,
    listed, held, read)``, the All Fives parts' door). Two modules are let off, for Flet's
    names only: ``ui/app/fletdiff.py`` stands in for two of Flet's private diff steps and
    ``ui/app/fletencode.py`` for its message encoder, so they work on what those work on;
    they are checked against Flet's own instead, message for message
    (``tests/ui/test_fletdiff.py``, ``tests/ui/test_fletencode.py``), and only on the Flet
    they were written for."""
    found = private_reaches(ROOT / "scorekeeper")
    stand_ins = ("scorekeeper/ui/app/fletdiff.py:", "scorekeeper/ui/app/fletencode.py:")
    assert [f for f in found if not f.startswith(stand_ins)] == []
    assert all(f.split(": ", 1)[1].rsplit(".", 1)[-1] in FLETS for f in found), found
    assert len(list((ROOT / "scorekeeper").rglob("*.py"))) > 150


def test_the_check_of_private_names_sees_them(tmp_path):
    (tmp_path / "a.py").write_text(
        "from m import _hidden, shown\n"
        "class A:\n    def __init__(self):\n        self._mine = 1\n"
        "    def same(self, other):\n        return other._mine + self._also + super()._base\n"
        "def f(store):\n    return store._index\n",
        encoding="utf-8",
    )
    (tmp_path / "b.py").write_text(
        "from typing import Protocol\nclass P(Protocol):\n    _shared: int\ndef g(p: P):\n    return p._shared\n",
        encoding="utf-8",
    )
    found = [line.split(": ", 1)[1] for line in private_reaches(tmp_path)]
    assert found == ["from m import _hidden", "store._index", "p._shared"]


def ui_package_imports() -> dict[str, set[str]]:
    """Which packages of ``scorekeeper.ui`` each one imports (every import of every module:
    at the top, in a function, for the type checker alone), itself left out."""
    import ast

    ui = ROOT / "scorekeeper" / "ui"
    graph: dict[str, set[str]] = {p.name: set() for p in ui.iterdir() if (p / "__init__.py").exists()}
    for package in graph:
        for path in (ui / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                for name in names:
                    parts = name.split(".")
                    if parts[:2] == ["scorekeeper", "ui"] and len(parts) > 2 and parts[2] in graph:
                        graph[package].add(parts[2])
        graph[package].discard(package)
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of ``graph`` (its nodes in order, the first again at the end), or []."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return []


def test_no_package_of_the_app_imports_another_that_imports_it_back():
    """One way down through ``ui/``: ``live`` (the hub) and ``access`` (who may come in)
    import nothing of the app, ``shell`` only them, the screens those and each other one
    way, ``app`` (the Router) the screens, and ``server`` (the HTTP door) serves the app."""
    graph = ui_package_imports()
    assert {"live", "access", "shell", "server", "join", "app", "allfives"} <= set(graph)
    assert a_cycle(graph) == []
    assert graph["live"] == set() and graph["access"] == set()
    assert graph["shell"] == {"live", "access"}
    assert "server" not in set().union(*(imported for package, imported in graph.items() if package != "server"))
    games = ("allfives", "allfours", "broadway")
    assert all("live" in graph[g] and "server" not in graph[g] for g in games)


def test_the_check_of_cycles_sees_one():
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b"}, "b": set()}) == []
