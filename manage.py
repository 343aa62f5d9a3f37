#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The statement timeout bounds the server's page requests (config/settings.py); commands —
    # migrations, the task worker, loading data — run long statements by design.
    os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", "0")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
