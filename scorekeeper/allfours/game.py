"""All Fours as the registry sees it."""

from __future__ import annotations

from scorekeeper.allfours.entries import AllFoursEntries
from scorekeeper.allfours.record import load, result, score_record
from scorekeeper.allfours.rows import rows
from scorekeeper.allfours.samples import samples
from scorekeeper.allfours.stats import KINDS, facts
from scorekeeper.allfours.text import render
from scorekeeper.allfours.timeline import timeline
from scorekeeper.allfours.variants import PRESETS
from scorekeeper.registry import GameSpec

GAME = GameSpec(
    id="all-fours",
    title="All Fours",
    entries=AllFoursEntries(),
    load=load,
    score=score_record,
    result=result,
    render=render,
    timeline=timeline,
    facts=facts,
    kinds=KINDS,
    rows=rows,
    presets=PRESETS,
    players=(2, 3, 4, 6),  # two or three sides: alone, or in teams of two
    samples=samples,
)
