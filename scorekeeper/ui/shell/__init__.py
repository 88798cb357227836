"""The shell: what every screen shares -- the app's state (state), the view-models' bases
(base, form), the one check of who may do what (policy), the table's drafts and questions
(drafts, asks), how a game's screens are found (screens) -- and the public building blocks
of the screens (widgets, table_view, typed)."""
