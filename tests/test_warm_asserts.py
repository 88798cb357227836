"""``tools/warm_asserts.py`` (run by ``make test`` before the suite): it writes pytest's own
cache of a test module with its asserts rewritten, which pytest reads back, and a module
edited since is not taken from it. If a later pytest rewrites elsewhere, these fail to say so
(the suite then only starts slower)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.assertion import rewrite

from tools import warm_asserts

MODULE = "def test_two():\n    x = 1\n    assert x == 2\n"


def cached(path: Path):
    return rewrite._read_pyc(path, rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL))


def test_the_cache_written_is_read_by_pytest_with_the_asserts_rewritten(tmp_path: Path):
    module = tmp_path / "test_x.py"
    module.write_text(MODULE, encoding="utf-8")
    assert cached(module) is None
    assert warm_asserts.warm(module)
    code = cached(module)
    assert code is not None
    space: dict[str, object] = {}
    exec(code, space)
    with pytest.raises(AssertionError) as failed:
        space["test_two"]()  # type: ignore[operator]
    assert "assert 1 == 2" in str(failed.value)  # pytest's explanation: the rewritten assert
    assert warm_asserts.warm(module)  # a second time: read, kept


def test_a_module_edited_since_is_not_taken_from_the_cache(tmp_path: Path):
    module = tmp_path / "test_x.py"
    module.write_text(MODULE, encoding="utf-8")
    warm_asserts.warm(module)
    module.write_text(MODULE.replace("x == 2", "x == 3"), encoding="utf-8")
    assert cached(module) is None  # pytest rewrites it anew


def test_the_modules_are_the_ones_pytest_rewrites(tmp_path: Path):
    for name in ("tests/conftest.py", "tests/test_a.py", "tests/sub/b_test.py", "tests/support.py", "scorekeeper/x.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    found = [p.relative_to(tmp_path).as_posix() for p in warm_asserts.test_modules(tmp_path)]
    assert found == ["tests/conftest.py", "tests/sub/b_test.py", "tests/test_a.py"]
