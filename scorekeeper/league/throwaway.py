"""A throwaway PostgreSQL cluster: the league's tests, its benchmark, a trial. Debian's
``postgresql`` package, ``initdb`` in a temporary folder, served on a unix socket in it.

It runs as an unprivileged user: the current one, or ``nobody`` when this is root (CI
runs as root, and PostgreSQL refuses to). Started once, torn down with :meth:`stop`.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from scorekeeper.errors import ScorekeeperError


class ClusterError(ScorekeeperError):
    """The cluster could not be made or started (what was run said why)."""


def pg_bin() -> Path:
    """The folder of Debian's ``initdb`` and ``pg_ctl`` (the newest version installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise ClusterError(
        "no initdb: install Debian's postgresql package (apt-get install -y postgresql) or set DATABASE_URL"
    )


def pg_tool(name: str) -> Path:
    """A PostgreSQL program (``pg_dump``, ``pg_restore`` ...): Debian's newest, else on the PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1])
    on_path = shutil.which(name)
    if on_path:
        return Path(on_path)
    raise ClusterError(f"no {name}: install Debian's postgresql-client package (apt-get install -y postgresql-client)")


class Cluster:
    """A cluster in ``folder`` (made when None), its socket in the folder."""

    def __init__(self, folder: Path | None = None) -> None:
        self.bin = pg_bin()
        self.folder = folder or Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
        self.data = self.folder / "data"
        self.as_root = os.geteuid() == 0
        self.user = "nobody" if self.as_root else None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@/postgres?host={self.folder}"

    def _run(self, *cmd: str) -> None:
        argv = [str(self.bin / cmd[0]), *cmd[1:]]
        if self.user:
            argv = ["runuser", "-u", self.user, "--", *argv]
        ran = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        if ran.returncode != 0:
            raise ClusterError(f"{cmd[0]} failed ({ran.returncode}): {(ran.stderr or ran.stdout).strip()[-800:]}")

    def _own_folder(self) -> None:
        if self.user is not None:
            shutil.chown(self.folder, self.user, "nogroup" if _group("nogroup") else self.user)
        os.chmod(self.folder, 0o755)

    def _serve(self) -> None:
        options = f"-k {self.folder} -c listen_addresses='' -F -c max_connections=200 -c shared_buffers=64MB"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def start(self) -> Cluster:
        self._own_folder()
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        self._serve()
        return self

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except ClusterError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


class Standby(Cluster):
    """A streaming replica of ``primary`` (``pg_basebackup -R``: it follows the primary and
    refuses writes), on a socket in a folder of its own: a read replica to try."""

    def __init__(self, primary: Cluster) -> None:
        super().__init__()
        self.primary = primary

    def start(self) -> Standby:
        self._own_folder()
        self._run(
            "pg_basebackup",
            "-h",
            str(self.primary.folder),
            "-U",
            "postgres",
            "-D",
            str(self.data),
            "-R",
            "-X",
            "stream",
        )
        self._serve()
        return self


def _group(name: str) -> bool:
    import grp

    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True
