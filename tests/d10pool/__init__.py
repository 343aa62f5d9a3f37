"""D10 Pool: a fourth rule system that lives only in the tests (issue 33).

It proves the seam is open: the test settings (tests/settings.py) install this app and register
its system, and nothing outside tests/ names it. Its engine (``rules``), sheet models and
migration, seam object (``system``), roll form, follow-up, contest style and templates are all
here; ``test_d10pool`` plays it through HTTP like any system.
"""
