"""The order the test files are handed to the test processes in (``make test``: pytest-xdist,
``--dist loadfile``: a whole file to one process): the costliest first.

pytest-xdist's own order is by the number of tests in a file, most first. The browser test
files have few tests and take the longest, so they came last: one of them starting near the
end ran on alone while the other processes had nothing left (in the run these seconds come
from, the three processes ended 20 s apart, and a run's order simulated from its figures ends
40 s sooner costliest first: 574 s against 614). Handed out costliest first, the last files
are the many short ones, and the processes end together.

``SECONDS`` is what each file took in one ``make test`` (2026-11-29, a 2-core machine busy
with other work besides: only the order matters), the sum of its tests' times, for every file
of 5 s or more (two taken again, from a run later that day, after a change made them cheaper:
the points browser tests, and the load harnesses' smoke runs less the 5 s their capacity run
has saved since). A file not listed counts ``E2E_SECONDS`` if it is a browser test's
(``tests/e2e/``) and ``PER_TEST`` a test otherwise. Add a new slow file here, or take the
figures anew from a run's ``--junitxml`` (the sum of a file's ``time``): a stale figure only
orders the run less well.
"""

from __future__ import annotations

SECONDS: dict[str, float] = {
    "tests/e2e/test_table_browser.py": 165,
    "tests/e2e/test_site_browser.py": 104,
    "tests/e2e/test_app_browser.py": 101,
    "tests/e2e/test_league_site_browser.py": 83,
    "tests/e2e/test_strangers.py": 77,
    "tests/e2e/test_broadway_browser.py": 66,
    "tests/e2e/test_server_hardening.py": 65,
    "tests/test_loadtest_smoke.py": 62,
    "tests/phone/test_build.py": 62,
    "tests/e2e/test_allfours_browser.py": 47,
    "tests/e2e/test_events_browser.py": 45,
    "tests/e2e/test_points_browser.py": 39,
    "tests/store/test_store_hardening.py": 39,
    "tests/store/test_store_safety.py": 35,
    "tests/e2e/test_rejoin_browser.py": 34,
    "tests/e2e/test_history_browser.py": 30,
    "tests/test_packaging.py": 29,
    "tests/e2e/test_fives_threes_browser.py": 27,
    "tests/test_fuzz_inputs.py": 26,
    "tests/league/test_benchmark_smoke.py": 25,
    "tests/store/test_portable.py": 24,
    "tests/e2e/test_league_browser.py": 23,
    "tests/e2e/test_players_browser.py": 22,
    "tests/e2e/test_wall_browser.py": 22,
    "tests/ui/test_fletdiff.py": 22,
    "tests/league/test_service.py": 19,
    "tests/cli/test_cli_streams.py": 19,
    "tests/e2e/test_layout_sizes_browser.py": 19,
    "tests/e2e/test_score_displays_browser.py": 19,
    "tests/ui/test_fletinit.py": 18,
    "tests/allfives/test_drawing_fit.py": 18,
    "tests/league/test_replica.py": 18,
    "tests/broadway/test_broadway_properties.py": 14,
    "tests/league/test_schedule.py": 14,
    "tests/e2e/test_netns.py": 14,
    "tests/ui/test_transport.py": 12,
    "tests/ui/test_players.py": 11,
    "tests/cli/test_smoke.py": 11,
    "tests/registry/test_layers.py": 11,
    "tests/store/test_store_read_only.py": 10,
    "tests/store/test_store_failed_writes.py": 10,
    "tests/stats/test_stats_properties.py": 9,
    "tests/allfours/test_ui_fours.py": 8,
    "tests/export/test_csv_properties.py": 8,
    "tests/test_text.py": 8,
    "tests/cli/test_cli_database.py": 7,
    "tests/broadway/test_ui_broadway.py": 7,
    "tests/cli/test_cli_events.py": 7,
    "tests/cli/test_cli_hardening.py": 7,
    "tests/allfours/test_allfours_spec.py": 7,
    "tests/test_tools_imports.py": 7,
    "tests/allfives/test_properties.py": 6,
    "tests/allfives/test_ui_model.py": 6,
    "tests/ui/test_fletencode.py": 6,
    "tests/test_function_length.py": 6,
    "tests/e2e/test_send_served.py": 5,
}
E2E_SECONDS = 20.0
PER_TEST = 0.02


def cost(path: str, tests: int) -> float:
    """The seconds the file ``path`` (from the root, as in a test's id) of ``tests`` tests is
    counted to take."""
    if path in SECONDS:
        return SECONDS[path]
    return E2E_SECONDS if path.startswith("tests/e2e/") else PER_TEST * tests


def costliest_first_scheduler() -> type:
    """pytest-xdist's ``loadfile`` scheduler, handing out the costliest file left each time."""
    from xdist.scheduler import LoadFileScheduling

    class CostliestFirst(LoadFileScheduling):
        def _assign_work_unit(self, node) -> None:
            # the next file xdist hands out is the first of its queue: put the costliest there
            costliest = max(self.workqueue, key=lambda path: cost(path, len(self.workqueue[path])))
            self.workqueue.move_to_end(costliest, last=False)
            super()._assign_work_unit(node)

    return CostliestFirst
