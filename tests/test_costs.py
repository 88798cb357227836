"""``tests/costs.py``: ``make test`` hands out the costliest test file left first."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from costs import E2E_SECONDS, PER_TEST, SECONDS, cost, costliest_first_scheduler

ROOT = Path(__file__).resolve().parents[1]


def test_every_file_listed_is_a_test_file_of_the_suite():
    assert [path for path in SECONDS if not (ROOT / path).is_file()] == []


def test_a_file_not_listed_counts_by_its_kind():
    assert cost("tests/e2e/test_table_browser.py", 9) == SECONDS["tests/e2e/test_table_browser.py"]
    assert cost("tests/e2e/test_new_browser.py", 1) == E2E_SECONDS
    assert cost("tests/new/test_x.py", 50) == 50 * PER_TEST


class Node:
    """A test process as the scheduler sees it: the indexes of the tests it is sent."""

    def __init__(self) -> None:
        self.sent: list[list[int]] = []

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.append(indexes)


def test_the_scheduler_hands_out_the_costliest_file_left_first():
    files = {  # in pytest-xdist's own order: the most tests first
        "tests/points/test_spec.py": 3,
        "tests/e2e/test_new_browser.py": 2,
        "tests/e2e/test_table_browser.py": 1,
    }
    cls = costliest_first_scheduler()
    scheduler = cls.__new__(cls)  # its state alone, as pytest-xdist's __init__ leaves it
    scheduler.workqueue, scheduler.assigned_work, scheduler.registered_collections = OrderedDict(), {}, {}
    node = Node()
    ids = [f"{path}::test_{i}" for path, n in files.items() for i in range(n)]
    scheduler.registered_collections[node] = ids
    for path, n in files.items():
        scheduler.workqueue[path] = {f"{path}::test_{i}": False for i in range(n)}
    while scheduler.workqueue:
        scheduler._assign_work_unit(node)
    assert list(scheduler.assigned_work[node]) == [
        "tests/e2e/test_table_browser.py",
        "tests/e2e/test_new_browser.py",
        "tests/points/test_spec.py",
    ]
    assert node.sent == [[5], [3, 4], [0, 1, 2]]
