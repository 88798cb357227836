"""The baseline for ``tools/loadtest/ui_latency.py``: the smallest declarative Flet 1.0 app.

One ``@ft.component`` holding a counter in ``ft.use_state``; the button
"Tap" adds one and the Text shows ``count=N``.  Whatever latency this app
has (browser input handling, the WebSocket round trip, Flet's diff and
Flutter's frame) is the floor for any Flet web app on this machine, so
Scorekeeper's tile-tap latency is reported next to it.

    FLET_FORCE_WEB_SERVER=1 python -m tools.loadtest.ui_baseline_app PORT [HOST]

Served like ``scorekeeper web``: Flet's web server, ``no_cdn=True``.
"""

from __future__ import annotations

import os
import sys

import flet as ft


@ft.component
def Counter():
    count, set_count = ft.use_state(0)
    return ft.Column(
        [
            ft.Text(f"count={count}", size=30),
            ft.Button("Tap", on_click=lambda: set_count(count + 1)),
        ]
    )


def main(page: ft.Page):
    page.title = "Baseline"
    page.render(Counter)


if __name__ == "__main__":
    port = int(sys.argv[1])
    host = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
    os.environ.setdefault("FLET_FORCE_WEB_SERVER", "1")  # serve only: never open a browser
    ft.run(main, view=ft.AppView.WEB_BROWSER, host=host, port=port, no_cdn=True)
