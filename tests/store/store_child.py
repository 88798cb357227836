"""Child process for tests/store/test_store_safety.py (run with ``sys.executable``).

Every line it prints goes out with one ``os.write`` call, so a line that was
printed is in the output file even when the process is SIGKILLed right after.

``store_child.py DBPATH SEED [LIMIT [MAX_HANDS]]``
    Opens the store (prints ``open <pid>``), then plays records into it
    forever: for k = 0, 1, 2, ... it creates a match from record k with its
    hands emptied (prints ``created <id> <record seed>``) and appends the
    record's entries one by one, printing ``ack <n>`` after each append has
    RETURNED (n = entries of this match acknowledged so far). Record k is
    ``record_for(SEED, k, MAX_HANDS)``. With LIMIT > 0 it stops after LIMIT
    appends in all (prints ``done``) and closes the store.

``store_child.py --try-open DBPATH``
    Tries to open the store once and exits at once: prints ``opened`` (exit 0),
    ``locked <message>`` (exit 3) or ``error <type>: <message>`` (exit 4).

``store_child.py --hold DBPATH``
    Opens the store, prints ``holding <pid>`` and sleeps until it is killed;
    if the store is locked, prints ``locked <message>`` and exits 3.

``store_child.py --serve DBPATH``
    Holds the store open as the app does (prints ``holding <pid>``; if the store
    is locked, prints ``locked <message>`` and exits 3) and writes what standard
    input asks, one JSON object a line, answering each with one line:
    ``{"create": RECORD}`` -> ``created <id>``; ``{"append": [ID, ENTRY]}`` ->
    ``ack`` once the append has returned; any error -> ``error <type>: <message>``.
    At the end of its input it closes the store and exits (``support.HeldStore`` drives it).
"""

from __future__ import annotations

import json
import os
import sys
import time


def say(line: str) -> None:
    data = (line + "\n").encode("utf-8")
    while data:
        data = data[os.write(1, data) :]


def orphaned() -> bool:
    """True when the test run that started this child is gone (``STORE_CHILD_PARENT``, its
    pid): a run killed mid-test must not leave children appending forever."""
    parent = os.environ.get("STORE_CHILD_PARENT")
    if not parent:
        return False
    try:
        os.kill(int(parent), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def record_for(run_seed: int, k: int, max_hands: int) -> tuple[int, dict]:
    """Record k of a child run: (its seed, the legal record). The tests mirror this."""
    from scorekeeper.allfives import random_record

    seed = run_seed * 1000 + k
    return seed, random_record(seed, players=2 + seed % 3, max_hands=max_hands)


def append_loop(db: str, run_seed: int, limit: int, max_hands: int) -> None:
    from scorekeeper.store import Store, entries_of

    store = Store(db)
    say(f"open {os.getpid()}")
    total = 0
    k = 0
    while True:
        seed, rec = record_for(run_seed, k, max_hands)
        mid = store.create(dict(rec, hands=[]))
        say(f"created {mid} {seed}")
        for n, entry in enumerate(entries_of(rec), start=1):
            store.append(mid, entry)
            say(f"ack {n}")
            total += 1
            if total % 50 == 0 and orphaned():
                store.close()
                return
            if limit and total >= limit:
                store.close()
                say("done")
                return
        k += 1


def try_open(db: str) -> int:
    from scorekeeper.store import Store, StoreLockedError

    try:
        store = Store(db)
    except StoreLockedError as e:
        say(f"locked {e}")
        return 3
    except Exception as e:  # the test reports what it was
        say(f"error {type(e).__name__}: {e}")
        return 4
    store.close()
    say("opened")
    return 0


def hold(db: str) -> int:
    from scorekeeper.store import Store, StoreLockedError

    try:
        store = Store(db)  # noqa: F841 -- kept open until the process is killed
    except StoreLockedError as e:
        say(f"locked {e}")
        return 3
    say(f"holding {os.getpid()}")
    while not orphaned():
        time.sleep(1)
    return 0


def serve(db: str) -> int:
    from scorekeeper.store import Store, StoreLockedError

    try:
        store = Store(db)
    except StoreLockedError as e:
        say(f"locked {e}")
        return 3
    say(f"holding {os.getpid()}")
    for line in sys.stdin:
        try:
            command = json.loads(line)
            if "create" in command:
                say(f"created {store.create(command['create'])}")
            else:
                mid, entry = command["append"]
                store.append(mid, entry)
                say("ack")
        except Exception as e:  # the test reports what it was
            say(f"error {type(e).__name__}: {e}".replace("\n", " "))
    store.close()
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--try-open"]:
        return try_open(argv[1])
    if argv[:1] == ["--hold"]:
        return hold(argv[1])
    if argv[:1] == ["--serve"]:
        return serve(argv[1])
    db, seed = argv[0], int(argv[1])
    limit = int(argv[2]) if len(argv) > 2 else 0
    max_hands = int(argv[3]) if len(argv) > 3 else 40
    append_loop(db, seed, limit, max_hands)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
