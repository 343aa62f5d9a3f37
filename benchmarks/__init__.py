"""Benchmarks (`make bench`): scripts that print figures against targets, never part of `make test`.

The package is also a tiny Django app, installed only by ``benchmarks.settings``: it holds the
bare baseline view and its table, which must never reach the production URLs."""
