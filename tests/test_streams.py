"""web/streams.py: an event stream's thread-sensitive work runs on one thread of its own until
its response starts, and that thread then ends; other requests go to the application as they
came."""

import asyncio
import threading

from asgiref.sync import ThreadSensitiveContext, sync_to_async

from web.streams import stream_threads


def _ident() -> threading.Thread:
    return threading.current_thread()


def serve(headers):
    """Run a Django-like application (its own ThreadSensitiveContext, as Django's handler
    enters) under stream_threads: the threads of its calls before and after the response
    started, and the messages it sent."""
    seen = {}

    async def application(scope, receive, send):
        async with ThreadSensitiveContext():
            seen["before"] = [await sync_to_async(_ident)() for _ in range(3)]
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await asyncio.sleep(0.05)  # the released thread ends once it wakes
            seen["alive"] = seen["before"][0].is_alive()
            seen["after"] = await sync_to_async(_ident)()

    sent = []

    async def send(message):
        sent.append(message["type"])

    async def receive():
        return {"type": "http.disconnect"}

    scope = {"type": "http", "headers": headers}
    asyncio.run(stream_threads(application)(scope, receive, send))
    return seen, sent


def test_an_event_streams_thread_ends_once_it_streams():
    seen, sent = serve([(b"accept", b"text/event-stream")])
    assert len(set(seen["before"])) == 1  # one thread, as asgiref's own per request
    assert seen["before"][0] is not threading.main_thread()
    assert not seen["alive"]
    assert seen["after"] is not seen["before"][0]
    assert sent == ["http.response.start"]


def test_another_request_keeps_its_thread_to_the_end():
    seen, sent = serve([(b"accept", b"text/html")])
    assert len(set(seen["before"])) == 1
    assert seen["alive"] and seen["after"] is seen["before"][0]
    assert sent == ["http.response.start"]
