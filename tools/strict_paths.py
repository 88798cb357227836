"""Print the paths ``make lint`` type-checks with ``mypy --strict``: the core.

    .venv/bin/python -m tools.strict_paths

The core is every game package built in (each one the registry's ``BUILTIN`` names, so a
new game is checked strictly from its one line there, with no edit of the Makefile) and
the modules every game stands on: the store, the events, the tally, the registry and the
bases of a game. The UI and the command line are checked in mypy's default mode.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The core beside the game packages, as paths from the repository's root.
CORE = (
    "scorekeeper/dominoes",
    "scorekeeper/store",
    "scorekeeper/tally",
    "scorekeeper/events",
    "scorekeeper/registry.py",
    "scorekeeper/envelope.py",
    "scorekeeper/setup.py",
    "scorekeeper/scored.py",
    "scorekeeper/points.py",
    "scorekeeper/codec.py",
    "scorekeeper/errors.py",
    "scorekeeper/text.py",
    "scorekeeper/system.py",
    "scorekeeper/eventbook.py",
    "scorekeeper/stats/facts.py",
    "scorekeeper/stats/csv_rows.py",
    # the league server's core: its storage seam and migrations, its clock, its pure modules
    "scorekeeper/league/db.py",
    "scorekeeper/league/migrate.py",
    "scorekeeper/league/clock.py",
    "scorekeeper/league/schedule.py",
    "scorekeeper/league/sheets.py",
    "scorekeeper/league/approval.py",
    "scorekeeper/league/book.py",
    "scorekeeper/league/table.py",
)


def game_packages() -> list[str]:
    """The folder of every game built in: the package of the module ``BUILTIN`` names."""
    from scorekeeper import registry

    return ["/".join(reg.engine.split(".")[:-1]) for reg in registry.BUILTIN.values()]


def strict_paths() -> list[str]:
    """Every path of the core, the game packages first; each one exists."""
    paths = [*game_packages(), *CORE]
    missing = [p for p in paths if not (ROOT / p).exists()]
    if missing:
        raise SystemExit(f"strict_paths: no such file or folder: {', '.join(missing)}")
    return paths


if __name__ == "__main__":
    print(" ".join(strict_paths()))
