"""The events' screens: club nights, tournaments and leagues (model: no Flet; view)."""
