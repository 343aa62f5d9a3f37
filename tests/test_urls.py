"""The order of config/urls.py: hot paths first (docs/performance.md), and no pattern hiding
another. Resolving a path keeps the list of every pattern tried before its own, for as long as
the request lives; the roll is resolved after the live stream's pattern alone."""

import re

import pytest
from django.urls import resolve, reverse

from log.tokens import entry_token
from tests.url_walker import walked

# A value of each converter the routes use, for a path of every pattern.
SAMPLES = {"id": 7, "entry": 7, "slug": "x", "str": "abc", "": "abc"}


def _kwargs(route: str) -> dict[str, object]:
    return {
        name: SAMPLES[converter] for converter, name in re.findall(r"<(?:(\w+):)?(\w+)>", route)
    }


@pytest.mark.parametrize("name", sorted(walked()))
def test_every_pattern_answers_its_own_paths(name):
    """Reordering the includes must leave every path answered by its own pattern: none of an
    earlier include takes another's path."""
    path = reverse(name, kwargs=_kwargs(walked()[name]))
    assert resolve(path).view_name == name


def test_a_roll_is_found_right_after_the_live_stream():
    path = reverse("roll_create", args=[7, "cogent-skill", 9])
    tried = [entry[-1].name for entry in resolve(path).tried]
    assert tried == ["campaign_events", "roll_create"]  # the live stream's pattern, its own
    assert entry_token(7) in reverse("roll_entry", args=[7])
