"""The web server around the app: starting it (serve), what it answers and to whom (guard,
bounds), who may come in (access, passes, strangers, the join screen) and the hub that keeps
every phone of a match in step (live, live_view)."""
