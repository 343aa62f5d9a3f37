"""The GM dashboard: who may see it, what it shows, inline resources and its pinned query count."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import live
from log.models import RollEntry, Visibility
from sheets.models import Role, System
from tests.factories import CampaignFactory, CharacterFactory, UserFactory
from tests.rolls.helpers import roll_url

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def dashboard(campaign):
    return reverse("campaign_dashboard", args=[campaign.pk])


def gm_of(campaign):
    return campaign.memberships.get(role=Role.GM).user


def resources_url(character):
    return reverse("character_resources", args=[character.pk])


@pytest.fixture
def system():
    """The dashboard's party plays Cold Stars."""
    return System.COLD_STARS


def test_permissions(client, party):
    campaign, pc, observer = party.campaign, party.pc, party.observer
    url = dashboard(campaign)
    assert client.get(url).status_code == 302  # anonymous → log in
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404  # non-member: no existence leak
    client.force_login(observer)
    assert client.get(url).status_code == 403
    client.force_login(pc.owner)
    assert client.get(url).status_code == 403
    client.force_login(gm_of(campaign))
    response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Ada" in body and "Spy" in body  # hidden NPCs too: it's the GM's page
    assert response.context["live_campaign"] == campaign


def test_shows_key_ratings_per_system(client):
    for system, words in (
        (System.COGENT, ["Strength", "Reflex", "Intelligence", "Destiny points"]),
        (System.DAD6, ["Class", "Level", "Ranger", "Rolled-forward boons"]),
        (System.COLD_STARS, ["Agility", "Presence", "Momentum", "Willpower"]),
    ):
        campaign = CampaignFactory(system=system)
        character = CharacterFactory(campaign=campaign)
        if system == System.DAD6:
            character.dad6.class_name = "Ranger"
            character.dad6.save()
        client.force_login(gm_of(campaign))
        body = client.get(dashboard(campaign)).content.decode()
        for word in words:
            assert word in body, (system, word)
        # Every system has resources to edit inline (DAD6: the rolled-forward boons).
        assert resources_url(character) in body


def test_live_parts_refresh_from_partials(client, party):
    campaign = party.campaign
    client.force_login(gm_of(campaign))
    body = client.get(dashboard(campaign)).content.decode()
    # The characters don't re-fetch whole on a roll or an edit: each card fetches itself
    # (live.js, live:card); the list only for a character it doesn't show yet (live:list).
    for trigger in ("live:card", "live:list", "sse:call", "sse:contest"):
        assert f'hx-trigger="{trigger}"' in body
    assert "sse:entry" not in body and "sse:sheet" not in body
    for part in ("characters", "calls", "contests"):
        response = client.get(dashboard(campaign) + f"?part={part}", headers=HX)
        assert response.status_code == 200
        assert "<html" not in response.content.decode()


def test_inline_resources_save_and_publish(client, party, monkeypatch):
    campaign, pc = party.campaign, party.pc
    sheet = pc.cold_stars
    sheet.momentum_max = sheet.willpower_max = 5
    sheet.save()
    client.force_login(gm_of(campaign))
    data = {f"res-{pc.pk}-momentum": 3, f"res-{pc.pk}-willpower": 4}
    published = []
    monkeypatch.setattr(live, "publish", lambda *event: published.append(event))
    response = client.post(resources_url(pc), data, headers=HX)
    assert response.status_code == 200 and "Saved." in response.content.decode()
    assert published == [(campaign.pk, "sheet", pc.pk)]
    sheet.refresh_from_db()
    assert (sheet.momentum, sheet.willpower) == (3, 4)
    # Without JavaScript: a plain POST redirects back to the character on the dashboard.
    response = client.post(resources_url(pc), data | {f"res-{pc.pk}-momentum": 1})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#char-{pc.pk}")


@pytest.mark.parametrize("value", ["6", "-1", "lots", ""])
def test_bad_resource_values_are_refused_beside_the_field(client, party, value):
    campaign, pc = party.campaign, party.pc
    sheet = pc.cold_stars
    sheet.momentum_max, sheet.momentum = 5, 2
    sheet.save()
    client.force_login(gm_of(campaign))
    data = {f"res-{pc.pk}-momentum": value, f"res-{pc.pk}-willpower": 0}
    response = client.post(resources_url(pc), data, headers=HX)
    assert response.status_code == 200
    assert 'class="field has-error"' in response.content.decode()
    response = client.post(resources_url(pc), data)
    assert response.status_code == 400
    sheet.refresh_from_db()
    assert sheet.momentum == 2  # nothing written


def test_cogent_destiny_inline(client):
    campaign = CampaignFactory(system=System.COGENT)
    character = CharacterFactory(campaign=campaign)
    client.force_login(gm_of(campaign))
    client.post(resources_url(character), {f"res-{character.pk}-destiny_points": 1}, headers=HX)
    character.cogent.refresh_from_db()
    assert character.cogent.destiny_points == 1
    response = client.post(resources_url(character), {f"res-{character.pk}-destiny_points": 4})
    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 3" in response.content.decode()


def test_resource_edit_permissions(client, party):
    pc, observer = party.pc, party.observer
    data = {f"res-{pc.pk}-momentum": 0, f"res-{pc.pk}-willpower": 0}
    client.force_login(UserFactory())
    assert client.post(resources_url(pc), data).status_code == 404
    for user in (observer, pc.owner):
        client.force_login(user)
        assert client.post(resources_url(pc), data).status_code == 403
    # DAD6's resource is the rolled-forward boons: the GM edits them; an empty post is a 400.
    dad6 = CharacterFactory(campaign__system=System.DAD6)
    client.force_login(gm_of(dad6.campaign))
    assert client.post(resources_url(dad6), {}).status_code == 400


def test_last_rolls_per_character(client, seeded):
    campaign = CampaignFactory(system=System.COGENT)
    a, b = CharacterFactory(campaign=campaign), CharacterFactory(campaign=campaign)
    for character, n in ((a, 5), (b, 1)):
        client.force_login(character.owner)
        skill = character.cogent.skills.get(name="Athletics")
        for _ in range(n):
            client.post(
                roll_url(character, "cogent-skill", skill),
                {"challenge_level": 1, "extra_penalty": 0},
            )
    client.force_login(b.owner)
    skill = b.cogent.skills.get(name="Athletics")
    client.post(
        roll_url(b, "cogent-skill", skill),
        {"challenge_level": 1, "extra_penalty": 0, "visibility": Visibility.BLIND},
    )
    client.force_login(gm_of(campaign))
    rows = {
        row["character"]: row["rolls"] for row in client.get(dashboard(campaign)).context["rows"]
    }
    newest_a = list(RollEntry.objects.filter(character=a).order_by("-pk")[:3])
    assert len(newest_a) == 3 and rows[a] == newest_a
    assert len(rows[b]) == 2 and not any(
        card.redacted for card in rows[b]
    )  # the GM reads blind rolls


def _count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("system", [System.COGENT, System.DAD6, System.COLD_STARS])
def test_query_count_does_not_grow_with_characters(client, seeded, system):
    campaign = CampaignFactory(system=system)
    gm = gm_of(campaign)
    client.force_login(gm)

    def add_character():
        character = CharacterFactory(campaign=campaign)
        if system == System.COGENT:
            kind, row, data = "cogent-skill", character.cogent.skills.first(), {}
        elif system == System.DAD6:
            kind, row = (
                "dad6-skill",
                character.dad6.skills.create(name="Climb", competence="expert"),
            )
            data = {"difficulty": 1, "task": "mundane", "traded_boons": 0}
            data |= {"tools": 0, "helpers": 0, "advantages": 0, "time": 0}
        else:
            kind, row = "cold-stars-skill", character.cold_stars.skills.first()
            data = {"ability": "agility", "risk": 0, "modification": "none"}
        for _ in range(2):
            client.post(roll_url(character, kind, row), data)
        return character

    add_character()
    one = _count(client, dashboard(campaign))
    for _ in range(11):
        add_character()
    # session, its user, membership+campaign, skill names (Cogent: vocations and sub-skills; DAD6:
    # skills; Cold Stars: campaign skills), last rolls of every character (one window query),
    # characters with their sheets, open and closed calls, active and decided contests, and the
    # character choices of the call form and the contest form's two sides (Cogent: every sheet's
    # injuries, prefetched in one query, and the assist form's characters, one read for both of
    # its character fields; and the vocations, which only the assist form offers), and the key
    # rows' rows of every sheet at once (Cogent: skills, vocations with their sub-skills, and the
    # disabling characteristics their pools take off; DAD6: skills; Cold Stars: trained skills),
    # and the session bar's open session (the newest marker); Cogent: the assists waiting for
    # every character at once, which the key rows' odds take (issue 48)
    expected = {System.COGENT: 22, System.DAD6: 15, System.COLD_STARS: 15}[system]
    assert _count(client, dashboard(campaign)) == one == expected


def test_query_count_with_calls_and_contests(client, seeded):
    from tests.factories import ContestFactory, RollCallFactory

    campaign = CampaignFactory(system=System.COGENT)
    client.force_login(gm_of(campaign))
    first = CharacterFactory(campaign=campaign)
    call = RollCallFactory(campaign=campaign, targets=[first])
    closed = RollCallFactory(campaign=campaign, targets=[first])
    closed.close()
    ContestFactory(campaign=campaign, character_a=first)
    one = _count(client, dashboard(campaign))
    for _ in range(10):
        character = CharacterFactory(campaign=campaign)
        call.targets.create(character=character)
        ContestFactory(campaign=campaign, character_a=character, character_b=first)
    # … plus each list's prefetched targets and entries: open calls (2), closed calls (2),
    # active contests (1, their entries), the campaign's Cogent combat skills (1, for the
    # conflict sides' options), every sheet's injuries (1), the assist form's characters (1) and
    # the vocations it offers (1); and the key rows' skills, vocations with sub-skills and
    # disabling characteristics (3); and the session bar's open session (1); and the assists
    # waiting for every character, which the key rows' odds take (1)
    assert _count(client, dashboard(campaign)) == one == 28
