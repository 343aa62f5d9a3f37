"""config/http.py: ``request.htmx`` reads the headers from ``META`` and answers as django-htmx's
own details do."""

import asyncio

import django_htmx.middleware
import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from config.http import HtmxMiddleware

HEADERS = [
    {},
    {"HX-Request": "true"},
    {"HX-Request": "false"},
    {"HX-Request": "true", "HX-Boosted": "true", "HX-Target": "panel", "HX-Trigger": "roll"},
    {"HX-Request": "true", "HX-Prompt": "Gr%C3%BC%C3%9Fe", "HX-Prompt-URI-AutoEncoded": "true"},
    {"HX-Request": "true", "HX-Prompt": "Gr%C3%BC%C3%9Fe"},  # not encoded: as sent
    {"HX-Request": "true", "Triggering-Event": '{"type": "click"}'},
    {"HX-Request": "true", "HX-Current-URL": "http://testserver/characters/1/?tab=2"},
    {"HX-Request": "true", "HX-History-Restore-Request": "true", "HX-Trigger-Name": "go"},
]
ASKED = [
    "boosted",
    "current_url",
    "current_url_abs_path",
    "history_restore_request",
    "prompt",
    "target",
    "trigger",
    "trigger_name",
    "triggering_event",
]


@pytest.mark.parametrize("headers", HEADERS)
def test_details_answer_as_django_htmxs_own(headers):
    request = RequestFactory().get("/", headers=headers)
    ours = HtmxMiddleware(lambda request: HttpResponse())
    ours(request)
    theirs = django_htmx.middleware.HtmxDetails(RequestFactory().get("/", headers=headers))
    assert bool(request.htmx) is bool(theirs)
    for name in ASKED:
        assert getattr(request.htmx, name) == getattr(theirs, name), name


def test_async_stack_gets_the_details_too():
    async def view(request):
        return HttpResponse(str(bool(request.htmx)))

    middleware = HtmxMiddleware(view)
    request = RequestFactory().get("/", headers={"HX-Request": "true"})
    response = asyncio.run(middleware(request))
    assert response.content == b"True"
