"""What Scorekeeper asks of the operating system it runs on, asked in one place.

Scorekeeper runs on Linux, macOS and Windows. Its modules never read ``sys.platform``
themselves: they ask :func:`windows`, :func:`macos` or :func:`linux`, which read
:data:`PLATFORM` when called (so a test can read the platform as Windows for Scorekeeper
alone, without changing it for the standard library). The flags of ``os.open`` that only
some systems have are here too, as 0 where the system has none, so that one ``os.open``
works everywhere:

* :data:`O_BINARY`: Windows only; without it a descriptor is in text mode there (a
  newline written becomes two bytes, and a Ctrl+Z read ends the file);
* :data:`O_CLOEXEC`: POSIX; Python makes every descriptor non-inheritable anyway (PEP 446),
  so it only saves a system call;
* :data:`O_NONBLOCK`: POSIX; opening a named pipe to read then never waits for a writer.
  Windows has no named pipes among its files, so it needs none.

A directory can be opened (for its ``fsync``, or its lock) only where ``os`` has
``O_DIRECTORY``: :func:`can_open_directories`, asked when needed, not at import.

>>> O_BINARY | O_CLOEXEC | O_NONBLOCK >= 0
True
"""

from __future__ import annotations

import os
import sys

#: The platform as Scorekeeper reads it (``sys.platform``: "linux", "darwin", "win32").
PLATFORM: str = sys.platform

O_BINARY: int = getattr(os, "O_BINARY", 0)
O_CLOEXEC: int = getattr(os, "O_CLOEXEC", 0)
O_NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)


def windows() -> bool:
    """True on Windows."""
    return PLATFORM == "win32"


def macos() -> bool:
    """True on macOS."""
    return PLATFORM == "darwin"


def linux() -> bool:
    """True on Linux."""
    return PLATFORM.startswith("linux")


def can_open_directories() -> bool:
    """True where a directory can be opened as a file (``os.O_DIRECTORY``): POSIX, not Windows."""
    return hasattr(os, "O_DIRECTORY")
