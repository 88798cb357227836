"""The HTTP door around the app: starting it (serve), what it answers and to whom (guard,
door, bounds, messages), sessions of browsers without a code (strangers), a match a phone
sends (inbox), the phone's site (phone_site), the fonts, and the app's state put together
(shared). It serves the app (:mod:`scorekeeper.ui.app`); nothing of the app imports it."""
