"""``run(coro)``: ``asyncio.run`` on a thread of its own.

In the whole suite a browser test may run before a test in the same process, and
Playwright's sync API leaves its event loop running in the main thread, where
``asyncio.run`` then refuses to start."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
