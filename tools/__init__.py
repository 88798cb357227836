"""The project's tools, run from the repository's root as modules (``python -m tools.NAME``):
the screenshots (``tools.screenshots``), the site's icons (``tools.site_icons``) and the
load harnesses (``tools.loadtest``). A package, so that ``python -m`` finds this one."""
