"""The benchmarks and the tools stay a thin layer on the app (issue 46): they run as modules
from the repository's root and never edit ``sys.path``; no module takes another's private
names; the load harnesses share one helper (``tools/loadtest/common.py``) and import no
other harness; Flet's insides and the browser tests' helpers are reached from that helper
alone; and every module of them still imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("benchmarks", "tools")
COMMON = "tools/loadtest/common.py"
#: The project's own top-level packages (``e2e``: tests/e2e as the tests import it).
PROJECT = {"benchmarks", "tools", "tests", "scorekeeper", "e2e"}


def modules() -> dict[str, ast.Module]:
    """Every Python file of benchmarks/ and tools/, parsed, by its path from the root."""
    return {
        p.relative_to(ROOT).as_posix(): ast.parse(p.read_text(encoding="utf-8"), filename=str(p))
        for top in SCANNED
        for p in sorted((ROOT / top).rglob("*.py"))
    }


def imported(tree: ast.Module) -> list[tuple[str, list[str], int]]:
    """Each import of ``tree``: the module imported from (or the module itself, for
    ``import x``), the names taken (none for ``import x``) and its line."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            found += [(a.name, [], node.lineno) for a in node.names]
    return found


def private_uses(path: str, tree: ast.Module) -> list[str]:
    """Private names of another module that ``tree`` takes: ``from m import _x`` and, for a
    name bound by importing from the project, ``name._x``."""
    found = []
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
            for a in node.names:
                if a.name.startswith("_") and not (path == COMMON and node.module.startswith("flet.")):
                    found.append(f"{path}:{node.lineno} from {node.module} import {a.name}")
                if node.module.split(".")[0] in PROJECT:
                    bound.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            bound |= {a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] in PROJECT}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append(f"{path}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def test_nothing_edits_sys_path():
    # run as modules from the root (python -m benchmarks.NAME, python -m tools.loadtest.NAME),
    # they find the project where it is: sys.path is not even read
    found = [
        f"{path}:{node.lineno}"
        for path, tree in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    ]
    assert found == []


def test_no_module_takes_another_modules_private_names():
    found = [use for path, tree in modules().items() for use in private_uses(path, tree)]
    assert found == []


def test_the_scan_sees_a_private_name_taken(tmp_path: Path):
    code = "from tools.loadtest import ui_latency\nfrom os import _exit\nui_latency._next_play(m)\nself._own = 1\n"
    found = private_uses("x.py", ast.parse(code))
    assert found == ["x.py:2 from os import _exit", "x.py:3 ui_latency._next_play"]


def test_the_harnesses_share_one_helper_and_it_alone_reaches_into_flet_and_the_tests():
    found = []
    for path, tree in modules().items():
        for module, _, line in imported(tree):
            where = f"{path}:{line} {module}"
            if module.startswith("flet.") and path != COMMON:
                found.append(f"{where}: Flet's insides, outside {COMMON}")
            if module.split(".")[0] in {"tests", "e2e"} and path.startswith("tools/loadtest/") and path != COMMON:
                found.append(f"{where}: the browser tests' helpers, outside {COMMON}")
            if module.split(".")[0] in {"tests", "e2e", "tools"} and path.startswith("benchmarks/"):
                found.append(f"{where}: a micro-benchmark depends on the tests or the tools")
            if module.startswith("tools.loadtest.") and module != "tools.loadtest.common":
                found.append(f"{where}: one harness imports another")
    assert found == []


def test_each_load_harness_has_a_smoke_run():
    harnesses = [p.stem for p in (ROOT / "tools" / "loadtest").glob("*.py") if p.stem not in {"__init__", "common"}]
    floors = {"ui_baseline_app", "ui_table_app"}  # the apps the latency's harness serves, not harnesses
    assert sorted(harnesses) == sorted(["broadcast", "capacity", "site", "table_load", "taps", "ui_latency", *floors])
    trees = modules()
    without = [
        name
        for name in harnesses
        if name not in floors
        and not any(
            isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SMOKE" for t in node.targets)
            for node in trees[f"tools/loadtest/{name}.py"].body
        )
    ]
    assert without == []


def test_every_module_of_the_benchmarks_and_the_tools_imports():
    names = sorted(path.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for path in modules())
    code = "import importlib\nfor name in " + repr(names) + ":\n    importlib.import_module(name)\n"
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=120
    )
    assert ran.returncode == 0, ran.stderr
