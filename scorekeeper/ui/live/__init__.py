"""Every phone of a match in step: the hub that tells the other screens of a match that it
changed (``hub``, no Flet), and its Flet side (``view``: ``use_live``, ``use_changes``).
It imports nothing of the rest of the app: a screen keeps in step through ``view.Live``."""
