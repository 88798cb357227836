"""The Broadway screens and their view-models (the view-models import no Flet):
``form`` and ``table`` (view-models), ``screens`` (the shell's screens), ``grid_view``
and ``panels`` (parts of the table screen)."""
