"""The shell: the app around the games' screens (app, home), what every view-model shares
(base, screens, form, drafts, roles) and the public building blocks of the screens (widgets,
typed)."""
