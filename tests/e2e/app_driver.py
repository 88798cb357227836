"""Driving Scorekeeper's screens in the browser: shared by the browser tests,
``tools/screenshots.py`` and the load harnesses of ``tools/loadtest``.

Expected texts are written here from the engine's turn, independently of the
view-models, so a test that waits for them checks what the app says.
"""

from __future__ import annotations

import sys

from . import harness

#: text fields of the rule options (the others are rows of buttons)
_TEXT_RULES = ("hand_size", "target")


def web_command(db: str, port: int) -> list[str]:
    """``scorekeeper web`` on 127.0.0.1:``port`` with the database ``db``."""
    return [
        sys.executable,
        "-m",
        "scorekeeper.cli",
        "--db",
        db,
        "web",
        "--no-browser",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]


def new_match(page, names, *, leader, partners=False, hand_sizes=None, rules=None, start=True, preset=None) -> None:
    """Fill the new-match screen from Home; ``rules`` maps a rule option's record key
    (``hand_size``, ``spinner``, ...) to its record value; the option is found by the
    words the screen shows for it. With ``start`` the match is started and the table is
    up with ``leader`` to play."""
    from scorekeeper.ui.allfives.form import RULE_WORDS

    harness.tap(page, "New match")
    harness.wait_text(page, "Start match")
    harness.tap(page, f"Players: {len(names)}")
    for i, name in enumerate(names, 1):
        harness.enter(page, f"Player {i}", name)
    if len(names) == 4 and not partners:  # four players play in partnerships unless switched off
        switch = page.get_by_role("switch")
        harness.settle(page, switch)
        switch.click()
        harness.wait_idle(page, quiet=0.15)
    if preset:  # the words of its button, e.g. "Fives and Threes (pub)"
        harness.tap(page, f"Rules: {preset}")
    if hand_sizes:
        harness.tap(page, f"Hand sizes: {hand_sizes}")
    if rules:
        harness.tap(page, "All rule options")
        for key, value in rules.items():
            words = RULE_WORDS[key]
            if key in _TEXT_RULES:
                harness.enter(page, words.name, str(value))
            else:
                harness.tap(page, f"{words.name}: {words.values[value]}")
        harness.scroll_to_top(page)  # before the form shrinks (see harness.scroll_to_top)
        harness.tap(page, "Hide rule options")
    harness.tap(page, f"First leader: {leader}")
    if start:
        harness.tap(page, "Start match")
        harness.wait_text(page, f"Hand 1, {leader} to play")


def ready_matches(db: str, specs: dict[str, dict]) -> dict[str, str]:
    """Make each match of ``specs`` (a name -> :func:`new_match`'s keyword arguments and the
    players' ``names``) in the database ``db``, before a server opens it, with the New match
    form's own view-model: the very record the form on the screen makes, without the ~6
    CPU-seconds of drawing it (a test of the table, not of the form, starts at its table).
    Returns each name's match id."""
    from scorekeeper.allfives.presets import HAND_SIZE_TABLES
    from scorekeeper.ui.allfives.form import PRESETS, NewMatchForm

    def fives(shared, spec: dict):
        form = NewMatchForm(shared, names=list(spec.pop("names")))
        form.set_partners(spec.pop("partners", False))
        preset = spec.pop("preset", None)
        if preset is not None:
            form.set_preset(next(k for k, p in PRESETS.items() if p.title == preset))
        hand_sizes = spec.pop("hand_sizes", None)
        if hand_sizes is not None:
            form.set_hand_sizes(next(k for k, w in HAND_SIZE_TABLES.items() if w == hand_sizes))
        for key, value in (spec.pop("rules", None) or {}).items():
            form.set_rule(key, value)
        form.set_leader(spec.pop("leader"))
        start = spec.pop("start", None)  # the scores carried in ("Scores so far"), by side
        if start is not None:
            form.set_carry(True)
            for i, side in enumerate(form.carried_sides()):
                form.set_carried(i, str(start.get(side, 0)))
        return form

    return _ready(db, specs, fives)


def _ready(db: str, specs: dict[str, dict], form_for) -> dict[str, str]:
    """Each match of ``specs`` made in ``db`` (before a server opens it) by the New match
    form ``form_for(shared, spec)`` fills (taking from ``spec`` the options it knows; one left
    over fails). Returns each name's match id."""
    from scorekeeper.ui.server.shared import open_shared

    shared = open_shared(db)
    try:
        mids: dict[str, str] = {}
        for name, spec in specs.items():
            spec = dict(spec)
            form = form_for(shared, spec)
            assert not spec, f"unknown options {sorted(spec)}"
            mid = form.start()
            assert mid is not None, form.error
            mids[name] = mid
        return mids
    finally:
        shared.close()


def read_record(db: str, mid: str) -> dict:
    """The record of match ``mid`` as the database holds it (read while its server runs)."""
    from scorekeeper.store import Store

    with Store(db, read_only=True) as st:
        return st.record(mid)


def play_note(m, turn) -> str:
    """The note the table shows after a play ``turn`` just pushed to the engine ``m``."""
    s = m.setup
    who = s.players[turn.player]
    bits = [f"count {turn.count}"]
    if turn.points:
        bits.append(f"{s.sides[s.side_of[turn.player]]} +{turn.points}")
    if m.hand.end == "domino":
        bits.append(f"{who} dominoed")
    return f"Note: {who} set {turn.tile}: " + ", ".join(bits)


def ready_broadway(db: str, specs: dict[str, dict]) -> dict[str, str]:
    """As :func:`ready_matches`, for Broadway: each spec gives the four ``names`` (North,
    East, South, West), ``leader`` (who holds 6-6, or None: the table asks) and, if not
    the defaults, ``orientation`` and ``penalty``; made with Broadway's New match form's
    own view-model. Returns each name's match id."""
    from scorekeeper.ui.broadway.form import BroadwayNewMatchForm

    def broadway(shared, spec: dict):
        form = BroadwayNewMatchForm(shared, names=list(spec.pop("names")))
        if "orientation" in spec:
            form.set_orientation(spec.pop("orientation"))
        if "penalty" in spec:
            form.set_penalty(spec.pop("penalty"))
        form.set_leader(spec.pop("leader", None))
        return form

    return _ready(db, specs, broadway)


def ready_allfours(db: str, specs: dict[str, dict]) -> dict[str, str]:
    """As :func:`ready_matches`, for All Fours: each spec gives the players' ``names``
    (partners sit opposite), the ``dealer`` of hand 1 and, if not the defaults,
    ``variant`` (its id, e.g. ``west-yorkshire``) and ``target``; made with All Fours'
    New match form's own view-model. Returns each name's match id."""
    from scorekeeper.ui.allfours.form import FoursNewMatchForm

    def fours(shared, spec: dict):
        names = list(spec.pop("names"))
        form = FoursNewMatchForm(shared, names=names)
        form.set_count(len(names))
        if "variant" in spec:
            form.set_variant(spec.pop("variant"))
        if "target" in spec:
            form.set_target(str(spec.pop("target")))
        form.set_dealer(spec.pop("dealer"))
        return form

    return _ready(db, specs, fours)


def ready_records(db: str, records: dict[str, dict]) -> dict[str, str]:
    """Store each record of ``records`` (name -> a ``scorekeeper/1`` record, say a match a few
    entries before its end) in the database ``db`` before a server opens it. Returns each
    name's match id."""
    from scorekeeper.store import Store

    with Store(db) as st:
        return {name: st.import_record(record) for name, record in records.items()}


def open_in_history(page, mid: str) -> None:
    """Tap the Open of match ``mid``'s card on the History list (the page shows it): the one
    match's, among as many as the database holds (its card is labelled with the button's
    tooltip, "Open match <id>")."""
    card = page.locator(f"flt-semantics[aria-label^={harness._css_str(f'Open match {mid}')}]")
    opener = card.get_by_role("button", name="Open", exact=True)
    harness.settle(page, opener)
    opener.click()


def shown_match(page) -> str:
    """The id of the match whose table (or stored page) the page shows, from its address."""
    return page.url.rstrip("/").rsplit("/", 1)[-1]
