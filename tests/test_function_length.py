"""No function of the app is longer than a reader can hold in mind (issue 46): a function of
``scorekeeper/`` over 150 lines is split by what its parts mean (as ``tally/svg.py``'s
``pegboard_svg`` was into the board's layout, its wood, each side's track and its pegs)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 150


def long_functions(package: Path, limit: int) -> list[str]:
    """``path:line name (N lines)`` of every function or method under ``package`` longer than
    ``limit`` lines, its decorators, docstring and nested functions included."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                lines = (node.end_lineno or node.lineno) - first + 1
                if lines > limit:
                    found.append(
                        f"{path.relative_to(package.parent).as_posix()}:{node.lineno} {node.name} ({lines} lines)"
                    )
    return found


def test_no_function_of_the_app_is_over_150_lines():
    assert long_functions(ROOT / "scorekeeper", LIMIT) == []


def test_the_scan_finds_a_long_function(tmp_path: Path):
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "long.py").write_text(
        f"def short():\n    pass\n\n\n@staticmethod\ndef long():\n{body}\n", encoding="utf-8"
    )
    found = long_functions(tmp_path, LIMIT)
    assert len(found) == 1 and found[0].endswith(f"long ({LIMIT + 2} lines)")
