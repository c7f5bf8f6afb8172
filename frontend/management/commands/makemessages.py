"""``makemessages`` that never scans what is not ours to translate.

The virtualenv, the runtime folder (``var/``, with its copy of the static files), the tests, the
test results and the documentation hold no user-facing strings; scanning them would put third-party
or throw-away strings into the catalogues. Locations are kept per file only, so that moving code
around does not rewrite every entry. ``bin/messages`` runs this for both domains, then compiles.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

IGNORED = [".venv", "venv", "var", "tests", "test-results", "docs", "locale", "*.egg-info", "node_modules"]


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        if options.get("add_location") is None:
            options["add_location"] = "file"
        super().handle(*args, **options)
