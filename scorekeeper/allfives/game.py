"""All Fives (with Muggins, Five Up and Cribbage 61) as the registry sees it."""

from __future__ import annotations

from scorekeeper.allfives.entries import AllFivesEntries
from scorekeeper.allfives.presets import PRESETS
from scorekeeper.allfives.record import load, result, score_record
from scorekeeper.allfives.rows import rows
from scorekeeper.allfives.rules import DEFAULT_HAND_SIZE
from scorekeeper.allfives.samples import samples
from scorekeeper.allfives.stats import KINDS, facts, kind
from scorekeeper.allfives.text import render
from scorekeeper.allfives.timeline import timeline
from scorekeeper.registry import GameSpec

GAME = GameSpec(
    id="all-fives",
    title="All Fives",
    entries=AllFivesEntries(),
    load=load,
    score=score_record,
    result=result,
    render=render,
    timeline=timeline,
    facts=facts,
    kinds=KINDS,
    kind=kind,
    rows=rows,
    presets=PRESETS,
    players=tuple(DEFAULT_HAND_SIZE),  # two to five: the numbers of players the rules deal for
    samples=samples,
)
