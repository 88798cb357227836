"""Print the characters of the font the phone's own site draws every name with.

The phone's site (``scorekeeper site``) ships one font for text: the Roboto that flet-web
ships (``flet_web/web/assets/fonts/roboto.woff2``), and nothing to fall back on offline
(Flutter would ask Google's font server). ``scorekeeper.ui.shell.glyphs.ROBOTO`` holds the
ranges of code points that font has; this prints them again from the installed flet-web,
for when flet-web changes its font (``tests/ui/test_glyphs.py`` compares the two).

    python -m tools.font_coverage

It needs fontTools with its WOFF 2 support (``pip install "fonttools[woff]"``: the test
extra has it); the app does not.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


def font_ranges() -> list[tuple[int, int]]:
    """The code points the installed flet-web's Roboto maps to a glyph, as closed ranges."""
    from fontTools.ttLib import TTFont

    spec = importlib.util.find_spec("flet_web")  # found, not imported (it imports flet)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("flet-web is not installed")
    path = Path(spec.submodule_search_locations[0]) / "web" / "assets" / "fonts" / "roboto.woff2"
    cmap = TTFont(str(path)).getBestCmap()
    ranges: list[tuple[int, int]] = []
    for code in sorted(cmap):
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return ranges


def main() -> None:
    print("ROBOTO = (")
    for first, last in font_ranges():
        print(f"    (0x{first:04X}, 0x{last:04X}),")
    print(")")


if __name__ == "__main__":
    main()
