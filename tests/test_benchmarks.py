"""The benchmarks are not run by the suite (docs/performance.md: `make bench`); this only checks
that each one imports, that their figures are computed right, and that the bare baseline view
stays out of the production URLs."""

import importlib

import pytest
from django.urls import NoReverseMatch, reverse

from benchmarks import common


@pytest.mark.parametrize(
    "name", ["rules_odds", "http_rolls", "log_page", "sse_fanout", "dashboard", "common"]
)
def test_each_benchmark_imports(name):
    module = importlib.import_module(f"benchmarks.{name}")
    assert callable(getattr(module, "main", None)) or name == "common"


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert common.percentile(values, 50) == 50
    assert common.percentile(values, 95) == 95
    assert common.percentile(values, 99) == 99
    assert common.percentile(values, 100) == 100
    assert common.percentile([7.0], 99) == 7.0
    assert common.percentile([3, 1, 2], 50) == 2


def test_the_bare_baseline_view_is_not_a_production_url(client):
    with pytest.raises(NoReverseMatch):
        reverse("bench_bare")
    assert client.post("/bench/bare/").status_code == 404


def test_benchmarks_skip_without_postgresql(monkeypatch, capsys):
    monkeypatch.setenv("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:1/poolside_bench")
    assert common.setup("A benchmark") is False
    assert "SKIPPED" in capsys.readouterr().out
