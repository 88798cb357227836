"""Windows as Scorekeeper's own modules see it, on Linux (``tests/store/test_portable.py``).

Put this folder first on ``PYTHONPATH``: every Python process started so (the tests' children
too) reads this module at start-up, and from then on the project's own modules -- those of
``scorekeeper/``, ``tests/``, ``tools/`` and ``benchmarks/`` in this tree -- import:

* no ``fcntl``, ``resource``, ``termios``, ``pwd``, ``grp`` (ModuleNotFoundError, as on
  Windows). The standard library and the dependencies keep them: filelock's ``flock`` stands
  in for Windows's ``LockFileEx``, Uvicorn and asyncio keep their POSIX event loop;
* ``os`` without what Windows's lacks (``O_DIRECTORY``, ``O_CLOEXEC``, ``O_NONBLOCK``,
  ``pread``, ``pwrite``, ``set_blocking``, ``fchmod``, ``getuid``, ``killpg``, ``mkfifo`` ...),
  ``signal`` with Windows's signals only, and ``sys.platform`` read as ``"win32"``.

Each is a view of the real module (what is not hidden is the real module's, and setting an
attribute sets the real module's): the interpreter, the standard library and the
dependencies are unchanged. ``SCOREKEEPER_AS_WINDOWS`` in the environment says it is in force.
"""

from __future__ import annotations

import builtins
import os
import signal
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
PROJECT = tuple(str(ROOT / part) + os.sep for part in ("scorekeeper", "tests", "tools", "benchmarks"))

#: the POSIX-only modules of the standard library
POSIX_ONLY = frozenset({"fcntl", "resource", "termios", "pwd", "grp", "posix"})

#: os.open's flags on Windows
WINDOWS_FLAGS = frozenset(
    "O_APPEND O_BINARY O_CREAT O_EXCL O_NOINHERIT O_RANDOM O_RDONLY O_RDWR O_SEQUENTIAL O_SHORT_LIVED "
    "O_TEMPORARY O_TEXT O_TRUNC O_WRONLY".split()
)
#: what POSIX's os has and Windows's has not (besides the O_ flags)
OS_POSIX_ONLY = frozenset(
    """pread pwrite preadv pwritev readv writev set_blocking get_blocking fchmod fchown chown lchown lchmod
    getuid geteuid getgid getegid getgroups setuid setgid seteuid setegid setsid getsid setpgid getpgid getpgrp
    killpg mkfifo mknod makedev major minor fork forkpty openpty sync statvfs fstatvfs uname getloadavg nice
    sched_getaffinity sched_setaffinity sched_yield wait wait3 wait4 waitid WNOHANG fdatasync posix_fadvise
    posix_fallocate sendfile lockf pipe2 fchdir chroot ctermid getpriority setpriority memfd_create eventfd
    splice copy_file_range pidfd_open getresuid getresgid initgroups getgrouplist ttyname tcgetpgrp tcsetpgrp
    sysconf fpathconf pathconf confstr WIFEXITED WEXITSTATUS WIFSIGNALED WTERMSIG posix_spawn posix_spawnp
    register_at_fork getxattr setxattr listxattr removexattr SEEK_DATA SEEK_HOLE getrandom""".split()
)
#: what Windows's signal module has
SIGNAL_WINDOWS = frozenset(
    """SIGABRT SIGFPE SIGILL SIGINT SIGSEGV SIGTERM SIG_DFL SIG_IGN NSIG Signals Handlers default_int_handler
    getsignal signal set_wakeup_fd raise_signal strsignal valid_signals""".split()
)


class View(types.ModuleType):
    """A module as Windows has it: ``hidden`` names are missing, ``shown`` ones replaced, the
    rest (and every attribute set) the real module's."""

    def __init__(self, real: types.ModuleType, hidden: frozenset[str], shown: dict[str, Any]) -> None:
        super().__init__(real.__name__, real.__doc__)
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_hidden", hidden)
        object.__setattr__(self, "_shown", shown)

    def __getattr__(self, name: str) -> Any:
        if name in self._shown:
            return self._shown[name]
        if name in self._hidden:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r} (not on Windows)")
        return getattr(self._real, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._real, name, value)

    def __delattr__(self, name: str) -> None:
        delattr(self._real, name)

    @property  # type: ignore[misc]
    def __dict__(self) -> dict[str, Any]:  # what monkeypatch reads and puts back: the real module's
        return self._real.__dict__

    def __dir__(self) -> list[str]:
        return sorted((set(dir(self._real)) - self._hidden) | set(self._shown))


OS = View(os, frozenset(n for n in dir(os) if n.startswith("O_") and n not in WINDOWS_FLAGS) | OS_POSIX_ONLY, {})
SIGNAL = View(signal, frozenset(n for n in dir(signal) if not n.startswith("_") and n not in SIGNAL_WINDOWS), {})
SYS = View(sys, frozenset(), {"platform": "win32"})
VIEWS = {"os": OS, "signal": SIGNAL, "sys": SYS}

_real_import = builtins.__import__


def _ours(importer: Any) -> bool:
    path = importer.get("__file__") if isinstance(importer, dict) else None
    return isinstance(path, str) and os.path.abspath(path).startswith(PROJECT)


def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
    if level == 0 and _ours(globals):
        top = name.partition(".")[0]
        if top in POSIX_ONLY:
            raise ModuleNotFoundError(f"No module named {top!r} (not on Windows)", name=top)
        if top in VIEWS:
            module = _real_import(name, globals, locals, fromlist, level)
            return VIEWS[top] if module is sys.modules[top] else module
    return _real_import(name, globals, locals, fromlist, level)


builtins.__import__ = _import
os.environ["SCOREKEEPER_AS_WINDOWS"] = "1"
