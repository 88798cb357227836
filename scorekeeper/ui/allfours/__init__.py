"""The allfours screens and their view-models (the view-models import no Flet)."""
