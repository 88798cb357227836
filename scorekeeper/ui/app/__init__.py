"""The app: the Router built from the registry and every screen's routes, Home, and the Flet
entry point of a session (``main``: ``make_main``). The top of the app: nothing below imports it."""
