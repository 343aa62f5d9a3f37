"""Benchmark-only URLs: the real ones plus the bare baseline. Never included by config.urls."""

from django.urls import include, path

from benchmarks import views

urlpatterns = [
    path("bench/bare/", views.bare, name="bench_bare"),
    path("bench/statements/", views.statements, name="bench_statements"),
    path("", include("config.urls")),
]
