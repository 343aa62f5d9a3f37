import os

from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    name = "benchmarks"

    def ready(self) -> None:
        # Only the click benchmark's server counts statements: the others measure throughput,
        # which even a counter's lock would touch.
        if os.environ.get("BENCH_STATEMENTS") == "1":
            from django.db.backends.signals import connection_created

            from benchmarks import statements

            connection_created.connect(statements.wrap)
