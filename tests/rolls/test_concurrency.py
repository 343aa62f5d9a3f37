"""Real parallel requests on PostgreSQL: resources never go wrong and the chain never forks.

Each test starts pytest-django's live server (one thread per request, one database connection per
thread) and fires requests from many client threads at once, as a busy table would.
"""

import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from threading import Lock

import pytest
from django.db import connection

from log.models import RollEntry
from sheets.models import System
from tests.factories import PASSWORD, CharacterFactory
from tests.rolls.helpers import roll_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="PostgreSQL only (row locks under real concurrency): run with DATABASE_URL=postgres://…",
    ),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


class Browser:
    """A logged-in HTTP client (cookies + CSRF) that is safe to share between threads."""

    def __init__(self, base: str, username: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        page = self.opener.open(f"{base}/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        self.post("/accounts/login/", {"username": username, "password": PASSWORD, "_t": token})

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def post(self, path: str, data: dict) -> tuple[int, str]:
        fields = {k: v for k, v in data.items() if k != "_t"}
        fields["csrfmiddlewaretoken"] = data.get("_t") or self.csrf()
        request = urllib.request.Request(
            self.base + path,
            data=urllib.parse.urlencode(fields).encode(),
            headers={"Referer": self.base + path},
        )
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )
        try:
            with opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_fifty_parallel_braces_spend_momentum_exactly(live_server):
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.strength = 2
    sheet.momentum_max = sheet.momentum = 20
    sheet.save()
    skill = sheet.skills.get(name="Athletics")
    browser = Browser(live_server.url, character.owner.username)
    path = roll_url(character, "cold-stars-skill", skill)
    form = {"ability": "strength", "risk": 3, "modification": "brace"}

    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(lambda _: browser.post(path, form), range(50)))

    statuses = [status for status, _ in results]
    assert statuses.count(302) == 10  # 20 Momentum / 2 per Brace
    refused = [body for status, body in results if status != 302]
    assert len(refused) == 40 and {status for status in statuses if status != 302} <= {400, 409}
    assert all(re.search(r"needs 2 Momentum; you have [01]\.", body) for body in refused)
    sheet.refresh_from_db()
    assert sheet.momentum == 0
    entries = RollEntry.objects.filter(character=character)
    assert entries.count() == 10
    assert all(e.resource_changes == {"momentum": -2} for e in entries)
    assert RollEntry.objects.verify_chain(character.campaign_id).intact


def test_two_hundred_concurrent_rolls_chain_once_each(live_server):
    first = CharacterFactory(campaign__system=System.COGENT)
    campaign = first.campaign
    characters = [first] + [CharacterFactory(campaign=campaign) for _ in range(3)]
    jobs = []
    for character in characters:
        browser = Browser(live_server.url, character.owner.username)
        skill = character.cogent.skills.get(name="Athletics")
        path = roll_url(character, "cogent-skill", skill)
        jobs += [(browser, path)] * 50

    def roll(job):
        browser, path = job
        return browser.post(path, {"challenge_level": 2, "extra_penalty": 0})

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = [status for status, _ in pool.map(roll, jobs)]

    assert statuses == [302] * 200
    seqs = list(
        RollEntry.objects.filter(campaign=campaign).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, 201))  # each stored exactly once, no gaps, no duplicates
    report = RollEntry.objects.verify_chain(campaign.pk)
    assert report.intact and report.verified == 200


def test_twenty_campaigns_rolling_at_once_keep_twenty_separate_chains(live_server):
    """Many tables at once (the common case, bench-http's 20 campaigns): 20 campaigns × 10 rolls
    from 20 threads, interleaved so every campaign appends while the others do. Appends in
    different campaigns lock different log heads; each chain must still come out whole —
    seq 1..10, no gap, no entry of another campaign, every hash linked."""
    characters = [CharacterFactory(campaign__system=System.COGENT) for _ in range(20)]
    rollers = []
    for character in characters:
        browser = Browser(live_server.url, character.owner.username)
        skill = character.cogent.skills.get(name="Athletics")
        rollers.append((browser, roll_url(character, "cogent-skill", skill)))
    jobs = [roller for _ in range(10) for roller in rollers]  # round robin over the campaigns

    def roll(job):
        browser, path = job
        return browser.post(path, {"challenge_level": 2, "extra_penalty": 0})[0]

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(roll, jobs))

    assert statuses == [302] * 200
    for character in characters:
        entries = RollEntry.objects.filter(campaign=character.campaign_id).order_by("seq")
        assert list(entries.values_list("seq", flat=True)) == list(range(1, 11))
        assert set(entries.values_list("character_id", flat=True)) == {character.pk}
        report = RollEntry.objects.verify_chain(character.campaign_id)
        assert report.intact and report.verified == 10, report.reason


def another_process_appends_first(monkeypatch, character, noted):
    """Make the next append of this thread lose its race: just before its one statement writes,
    another "process" (a thread with its own connection, committed on its own) appends to the
    same campaign. ``noted(entry)`` is recorded in the returned ``raced`` list; ``results`` gets
    each of this thread's writes' outcomes."""
    from log.models import chain as log
    from tests.rolls.helpers import append

    write, turn, raced, results = log.ChainSQL.write, log._append_turn, [], []
    here = threading.current_thread()

    def other_process_first(self, cursor, entry, signature, counters, *, expected):
        if threading.current_thread() is not here:  # the other "process"
            return write(self, cursor, entry, signature, counters, expected=expected)
        if not raced:
            raced.append(noted(entry))
            with ThreadPoolExecutor(1) as pool:
                pool.submit(lambda: (append(character), connection.close())).result()
        results.append(write(self, cursor, entry, signature, counters, expected=expected))
        return results[-1]

    # A process's appends take turns on its own locks: the other process has its own.
    monkeypatch.setattr(
        log, "_append_turn", lambda pk: turn(pk) if threading.current_thread() is here else Lock()
    )
    monkeypatch.setattr(log.ChainSQL, "write", other_process_first)
    return raced, results


def test_an_append_that_loses_the_race_is_made_again_under_the_heads_lock(monkeypatch):
    """Outside a transaction an append reads the head, then writes only if the head is still
    there (log/models/chain.py). Another server process appending in between — here a thread,
    with its own connection, between the read and the write — makes the write change nothing;
    the append is then made under the head's lock, after the other one, and the chain holds."""
    from tests.rolls.helpers import append

    character = CharacterFactory(campaign__system=System.COGENT)
    append(character)
    raced, results = another_process_appends_first(monkeypatch, character, lambda e: e.seq)
    [entry] = append(character)
    assert raced == [2]  # it knew the head at #1 and meant to write #2 …
    assert results == [False, True]  # … which the other append took: then under the lock
    assert (
        entry.seq == 3
        and entry.prev_hash == RollEntry.objects.get(campaign=character.campaign, seq=2).hash
    )
    assert RollEntry.objects.filter(campaign=character.campaign).count() == 3
    assert RollEntry.objects.verify_chain(character.campaign_id).intact


def test_dice_drawn_for_a_place_another_roll_took_are_drawn_again_under_the_lock(
    monkeypatch, client
):
    """A plain roll's dice are drawn for the head as last known (docs/verifiable-dice.md). When
    another process appends between the draw and the write, nothing is written (that place is
    taken) and the roll is made again under the head's lock — with the same nonce (the server's,
    drawn once, as none was sent) and the roller's same number, so the same proof and the same
    dice: losing a race, or a server refusing a roll, buys no re-roll. verify_log agrees."""
    from log.models import LogHead
    from log.models.keys import keys_by_id
    from proofs import protocol as poolside_verify
    from tests.rolls.helpers import append

    character = CharacterFactory(campaign__system=System.COGENT)
    append(character)
    raced, results = another_process_appends_first(
        monkeypatch, character, lambda e: (e.proof, e.faces)
    )
    client.force_login(character.owner)
    skill = character.cogent.skills.get(name="Athletics")
    response = client.post(
        roll_url(character, "cogent-skill", skill), {"challenge_level": 2, "extra_penalty": 0}
    )
    assert response.status_code == 302
    assert results == [False, True]  # the first place was taken; rolled again under the lock
    entry = RollEntry.objects.get(campaign=character.campaign, seq=3)
    assert (entry.proof, entry.faces) == raced[0]
    head = LogHead.objects.get(campaign=character.campaign)
    assert head.counters == {str(character.owner.pk): 1}
    record = {"label": entry.label, "faces": entry.faces, "proof": entry.proof}
    poolside_verify.check_proof(record, keys_by_id())
    assert RollEntry.objects.verify_chain(character.campaign_id).intact
