"""Flutter's font list (``assets/FontManifest.json``) as the app's pages get it, from the table's
server and in the phone's site alike.

Flutter's web client loads every font of that list before it draws its first frame. flet-web's
list names the Material icons and twenty fonts of TeX formulas (for Markdown with formulas,
which no screen of the app has), and the Cupertino icons: they are left out. Roboto, which flet-web ships, is added (as
Flet does when it serves with no CDN), so that Flutter draws text with it rather than asking
Google's font server for it.
"""

from __future__ import annotations

import json

from scorekeeper.errors import SiteError

__all__ = ["FONTS_LEFT_OUT", "PATH", "patch_fonts"]

#: Where the client asks for the list.
PATH = "/assets/FontManifest.json"

#: The families left out (a prefix of their names).
FONTS_LEFT_OUT = "packages/flutter_math_fork/"
#: A family left out besides: the Cupertino icons, which no screen of the app draws.
CUPERTINO = "packages/cupertino_icons/CupertinoIcons"


def patch_fonts(data: bytes) -> bytes:
    """flet-web's font list ``data`` without the TeX fonts, with Roboto.

    >>> patch_fonts(b'[{"family": "MaterialIcons", "fonts": []}, '
    ...             b'{"family": "packages/flutter_math_fork/KaTeX_Main", "fonts": []}]').decode()
    '[{"family":"MaterialIcons","fonts":[]},{"family":"Roboto","fonts":[{"asset":"fonts/roboto.woff2"}]}]'
    """
    fonts = json.loads(data)
    if not isinstance(fonts, list) or not all(isinstance(f, dict) for f in fonts):
        raise SiteError("flet-web's assets/FontManifest.json is not a list of fonts: this Flet is not supported")
    fonts = [
        f for f in fonts if not str(f.get("family", "")).startswith(FONTS_LEFT_OUT) and f.get("family") != CUPERTINO
    ]
    if not any(f.get("family") == "Roboto" for f in fonts):
        fonts.append({"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]})
    return json.dumps(fonts, separators=(",", ":")).encode()
