"""Sessions and scenes (docs/sessions.md): the markers in the chain, the GM table's buttons, the
log's headings, filter and jump list, and what every member sees of them."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from log.models import Kind, RollEntry, Visibility
from rolls.sessions import actions
from rolls.sessions.state import current, marker_name, sessions
from sheets.models import Refused
from tests.rolls.helpers import append, token

pytestmark = pytest.mark.django_db

SESSION_HEADING = re.compile(r'<li class="log-session" data-session="([^"]+)"><h2>(.*?)</h2></li>')


def log_page(client, campaign, **params):
    headers = {"HX-Request": "true"} if params.pop("htmx", False) else {}
    response = client.get(reverse("campaign_log", args=[campaign.pk]), params, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def cards(page):
    return re.findall(r'<article [^>]*id="entry-([\w-]+)"', page)


def session_headings(page):
    return [(key, re.sub(r"<[^>]+>", "", text)) for key, text in SESSION_HEADING.findall(page)]


def play(party):
    """Two sessions: the first with two scenes and a roll in each, then ended; a roll between
    sessions; the second going on, with one roll before its first scene."""
    gm, campaign = party.gm, party.campaign
    before = append(party.pc)[0]
    actions.start_session(gm, campaign, "The heist")
    opening = append(party.pc)[0]
    actions.mark_scene(gm, campaign, "The docks")
    docks = append(party.pc)[0]
    actions.mark_scene(gm, campaign, "")
    vault = append(party.other_pc)[0]
    actions.end_session(gm, campaign)
    between = append(party.pc)[0]
    actions.start_session(gm, campaign)
    second = append(party.pc)[0]
    return {
        "before": before,
        "opening": opening,
        "docks": docks,
        "vault": vault,
        "between": between,
        "second": second,
    }


# --- the service ---------------------------------------------------------------------------------


def test_markers_are_chain_entries_numbered_in_order(party):
    play(party)
    markers = list(RollEntry.objects.markers().filter(campaign=party.campaign).order_by("seq"))
    assert [(m.kind, m.said) for m in markers] == [
        (Kind.SESSION, "Session 1: The heist"),
        (Kind.SCENE, "Scene 1: The docks"),
        (Kind.SCENE, "Scene 2"),
        (Kind.SESSION_END, "Session 1"),  # its title is its start's, never repeated
        (Kind.SESSION, "Session 2"),
    ]
    # A name the GM typed a title into is committed, not hashed in the clear (hash version 6).
    assert [m.detail for m in markers] == ["", "", "", "Session 1", ""]
    assert [sorted(m.commitments) for m in markers] == [["detail"]] * 3 + [[]] + [["detail"]]
    assert all(m.visibility == Visibility.PUBLIC and m.character_id is None for m in markers)
    assert all(m.label == "" for m in markers)  # nothing rolled: never a skill to filter by
    assert markers[2].result == {"session": 1, "scene": 2, "open": True}  # no title repeated
    # Hashed like every entry: the chain still verifies, markers and all.
    assert RollEntry.objects.verify_chain(party.campaign.pk).intact
    assert current(party.campaign.pk).name == "Session 2"


def test_starting_a_session_ends_the_open_one_first(party):
    actions.start_session(party.gm, party.campaign, "One")
    actions.mark_scene(party.gm, party.campaign, "A")
    written = actions.start_session(party.gm, party.campaign, "Two")
    assert [(e.kind, marker_name(e)) for e in written] == [
        (Kind.SESSION_END, "Session 1: One"),
        (Kind.SESSION, "Session 2: Two"),
    ]
    state = current(party.campaign.pk)
    assert (state.session, state.title, state.scene) == (2, "Two", None)


def test_scenes_and_ends_need_an_open_session(party):
    with pytest.raises(Refused, match="Start a session first"):
        actions.mark_scene(party.gm, party.campaign, "Nowhere")
    with pytest.raises(Refused, match="No session is going on"):
        actions.end_session(party.gm, party.campaign)
    actions.start_session(party.gm, party.campaign)
    actions.end_session(party.gm, party.campaign)
    with pytest.raises(Refused):
        actions.end_session(party.gm, party.campaign)
    assert current(party.campaign.pk) is None
    assert RollEntry.objects.markers().count() == 2


def test_the_session_list_knows_each_sessions_span(party):
    rolls = play(party)
    second, first = sessions(party.campaign.pk)
    assert (second.state.name, second.end, first.state.name) == (
        "Session 2",
        None,
        "Session 1: The heist",
    )
    assert [scene.state.scene_name for scene in first.scenes] == ["Scene 1: The docks", "Scene 2"]
    start, end = first.span()  # places in the chain
    assert start < rolls["opening"].seq < rolls["vault"].seq < end < rolls["between"].seq
    docks_start, docks_end = first.span(1)
    assert docks_start < rolls["docks"].seq <= docks_end < rolls["vault"].seq
    assert first.span(3) is None


# --- the GM table --------------------------------------------------------------------------------


def post(client, name, campaign, data=None, htmx=False):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse(name, args=[campaign.pk]), data or {}, headers=headers)


def test_only_the_gm_runs_sessions(client, party):
    campaign = party.campaign
    for user, status in (
        (party.player, 403),
        (party.observer, 403),
        (party.nonmember, 404),
    ):
        client.force_login(user)
        for name in ("session_start", "session_scene", "session_end"):
            assert post(client, name, campaign, {"title": "Mine"}).status_code == status
        assert client.get(reverse("session_bar", args=[campaign.pk])).status_code == status
    assert not RollEntry.objects.markers().exists()
    client.logout()
    response = post(client, "session_start", campaign)
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(party.gm)
    assert client.get(reverse("session_bar", args=[campaign.pk])).status_code == 200
    # GET never writes.
    assert client.get(reverse("session_start", args=[campaign.pk])).status_code == 405


def test_plain_posts_redirect_to_the_table_with_a_message(client, party):
    client.force_login(party.gm)
    response = post(client, "session_start", party.campaign, {"title": "  The heist "})
    dashboard = reverse("campaign_dashboard", args=[party.campaign.pk])
    assert response.status_code == 302 and response["Location"] == dashboard + "#session-bar"
    page = client.get(dashboard).content.decode()
    assert "Session 1: The heist has started." in page
    assert "Now playing</span> Session 1: The heist</h2>" in page
    post(client, "session_scene", party.campaign, {"title": "The docks"})
    page = client.get(dashboard).content.decode()
    assert "Scene 1: The docks has begun." in page
    assert "Scene 1: The docks · rolls made now belong to this session." in page
    post(client, "session_end", party.campaign)
    page = client.get(dashboard).content.decode()
    assert "Session 1: The heist has ended." in page and "No session going on" in page
    # Its recap, a click away (and to the webhooks, once the campaign has one).
    recap = reverse("session_recap", args=[party.campaign.pk, 1])
    assert f'href="{recap}" download>Markdown</a>' in page and "Post it to the webhooks" not in page


def test_htmx_gets_the_bar_and_refusals_say_why(client, party):
    client.force_login(party.gm)
    response = post(client, "session_scene", party.campaign, {"title": "Early"}, htmx=True)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="session-bar"')
    assert "Start a session first: a scene is part of a session." in page
    response = post(client, "session_start", party.campaign, {"title": "Go"}, htmx=True)
    assert "Session 1: Go has started." in response.content.decode()
    response = post(client, "session_end", party.campaign, htmx=True)
    response = post(client, "session_end", party.campaign)  # plain: redirect, message
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "No session is going on." in page


def test_a_title_too_long_is_refused_beside_the_field_and_kept(client, party):
    client.force_login(party.gm)
    title = "x" * 101
    response = post(client, "session_start", party.campaign, {"title": title})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Ensure this value has at most 100 characters" in page
    assert f'value="{title}"' in page  # what was typed is still there
    response = post(client, "session_start", party.campaign, {"title": title}, htmx=True)
    assert "at most 100 characters" in response.content.decode()
    assert not RollEntry.objects.markers().exists()


# --- the log -------------------------------------------------------------------------------------


def test_the_log_groups_entries_under_session_and_scene_headings(client, party):
    rolls = play(party)
    client.force_login(party.player)
    page = log_page(client, party.campaign)
    assert session_headings(page) == [
        ("2", "Session 2"),
        ("1.2", "Session 1: The heist · Scene 2"),
        ("1.1", "Session 1: The heist · Scene 1: The docks"),
        ("1", "Session 1: The heist"),
    ]
    # Each heading stands above the first (newest) entry of its group, markers included.
    assert len(cards(page)) == 11
    second_heading = page.index('data-session="2"')
    assert second_heading < page.index(f'id="entry-{token(rolls["second"])}"')
    assert page.index(f'id="entry-{token(rolls["between"])}"') > second_heading
    # Markers are dividers: no dice, no outcome, a link.
    assert '<span class="marker-kind">Session ended</span> Session 1: The heist' in page
    assert '<span class="marker-kind">New scene</span> Scene 1: The docks' in page


def test_a_hidden_roll_in_a_session_leaves_no_heading_behind(client, party):
    actions.start_session(party.gm, party.campaign)
    actions.mark_scene(party.gm, party.campaign, "Secret meeting")
    # Not a marker's scene heading without a card: the GM's secret roll is the scene's only roll.
    append(party.hidden_npc, visibility=Visibility.SECRET, user=party.gm)
    client.force_login(party.player)
    page = log_page(client, party.campaign)
    # The scene's marker is public, so its heading shows; the secret roll gives nothing away.
    assert session_headings(page) == [
        ("1.1", "Session 1 · Scene 1: Secret meeting"),
        ("1", "Session 1"),
    ]
    assert page.count('class="log-item"') == 2


def test_the_session_filter_shows_one_session_or_one_scene(client, party):
    rolls = play(party)
    client.force_login(party.player)
    page = log_page(client, party.campaign, session=1)
    shown = set(cards(page))
    inside = {token(rolls[k]) for k in ("opening", "docks", "vault")}
    outside = {token(rolls[k]) for k in ("before", "between", "second")}
    assert inside <= shown and not outside & shown
    assert len(shown) == 3 + 4  # and the session's own four markers
    # The jump list: the whole session, then each scene.
    nav = re.search(r'<nav class="scene-links".*?</nav>', page).group(0)
    assert re.findall(r">([^<]+)</a>", nav) == [
        "The whole session", "Scene 1: The docks", "Scene 2",
    ]  # fmt: skip
    assert 'aria-current="page">The whole session' in nav
    page = log_page(client, party.campaign, session=1, scene=1)
    shown = set(cards(page))
    assert token(rolls["docks"]) in shown and len(shown) == 2  # the roll and its scene's marker
    assert "Filtered: Session 1: The heist · Scene 1: The docks" in page
    # The export takes the same filter.
    export = client.get(
        reverse("campaign_log_json", args=[party.campaign.pk]), {"session": 1, "scene": 1}
    )
    records = b"".join(export.streaming_content).decode()
    assert records.count('"kind":"scene"') == 1 and records.count('"kind":"roll"') == 1


def test_a_scene_the_session_lacks_is_reported_beside_the_session_field(client, party):
    play(party)
    client.force_login(party.player)
    page = log_page(client, party.campaign, session=1, scene=9)
    assert "Session 1 has no scene 9: showing the whole session." in page
    assert len(re.findall(r'class="log-item"', page)) == 3 + 4
    page = log_page(client, party.campaign, session=7)
    assert "Select a valid choice" in page


def test_a_campaign_without_sessions_has_no_session_filter(client, party):
    append(party.pc)
    client.force_login(party.player)
    page = log_page(client, party.campaign)
    assert 'name="session"' not in page and "log-session" not in page


def test_markers_are_not_skills_statistics_or_rerollable(client, party):
    play(party)
    client.force_login(party.gm)
    page = log_page(client, party.campaign)
    skills = re.search(r'<select name="skill".*?</select>', page, re.S).group(0)
    assert "Session" not in skills and "Scene" not in skills
    stats = client.get(reverse("campaign_stats", args=[party.campaign.pk])).content.decode()
    assert re.search(r"<dt>Rolls</dt><dd>6</dd>", stats)  # the six rolls, no marker
    marker = RollEntry.objects.markers().order_by("pk").first()
    detail = client.get(marker.get_absolute_url())
    assert detail.status_code == 200
    assert "Session 1: The heist" in detail.content.decode()
    for action in ("destiny", "correct", "buy-boon"):
        url = reverse("roll_follow_up", args=[marker.pk, action])
        assert client.post(url).status_code in (400, 404, 409)
    response = client.post(reverse("roll_reveal", args=[marker.pk]))
    assert response.status_code == 302  # already readable by everyone: nothing written
    assert RollEntry.objects.filter(kind=Kind.REVEAL).count() == 0


def test_query_counts_hold_with_sessions(client, party):
    play(party)
    for _ in range(3):
        actions.mark_scene(party.gm, party.campaign, "More")
        append(party.pc, 10)
    client.force_login(party.player)
    with CaptureQueriesContext(connection) as plain:
        log_page(client, party.campaign)
    with CaptureQueriesContext(connection) as filtered:
        log_page(client, party.campaign, session=2, scene=2)
    # The markers come with the character and player choices (one UNION), each entry's session
    # with its row: no query more than a log without sessions.
    assert len(plain.captured_queries) == len(filtered.captured_queries) == 6


def test_markers_go_out_to_the_webhooks_as_what_happened_at_the_table(party, settings):
    from rolls.log.records import public_record
    from rolls.models import WebhookDelivery
    from rolls.webhooks import payloads
    from tests.factories import WebhookFactory

    WebhookFactory(campaign=party.campaign)
    title = "**bold** @everyone " + "x" * 90
    (entry,) = actions.start_session(party.gm, party.campaign, title)
    assert WebhookDelivery.objects.record_entry(entry.pk)  # readable by everyone: sent
    record = public_record(entry.pk, base_url=settings.SITE_URL)
    message = payloads.discord_message(party.campaign, record)
    (embed,) = message["embeds"]
    assert embed["title"].startswith("Session started: Session 1\\: \\*\\*bold\\*\\* \\@everyone")
    assert embed["fields"] == [] and embed["url"].endswith(entry.get_absolute_url())
    assert len(embed["title"]) <= 256 and message["allowed_mentions"] == {"parse": []}


# --- the API -------------------------------------------------------------------------------------


def api_client(user, scope=None):
    from django.test import Client

    from sheets.models import ApiToken, Scope

    _, raw = ApiToken.issue(user, name="t", scope=scope or Scope.ROLL)
    return Client(headers={"Authorization": f"Bearer {raw}"})


def test_the_api_runs_and_lists_sessions_with_the_pages_rules(party):
    from sheets.models import Scope

    campaign = party.campaign
    url = reverse("api:sessions", args=[campaign.pk])
    gm = api_client(party.gm)
    player = api_client(party.player)
    assert player.get(url).json() == {"current": None, "sessions": [], "next": None}
    # Only the GM writes, with the roll scope; a non-member learns nothing.
    assert player.post(url, {"title": "Mine"}, content_type="application/json").status_code == 403
    assert api_client(party.nonmember).get(url).status_code == 404
    read_only = api_client(party.gm, Scope.READ)
    assert read_only.post(url, {}, content_type="application/json").status_code == 403
    too_long = gm.post(url, {"title": "x" * 101}, content_type="application/json")
    assert too_long.status_code == 422 and "title" in too_long.json()["errors"]
    scene_url = url + "/current/scenes"
    refused = gm.post(scene_url, {"title": "Early"}, content_type="application/json")
    assert refused.status_code == 409 and "Start a session first" in refused.json()["detail"]

    started = gm.post(url, {"title": "The heist"}, content_type="application/json")
    assert started.status_code == 201
    assert started.json()["name"] == "Session 1: The heist" and not started.json()["ended"]
    scene = gm.post(scene_url, {"title": "The docks"}, content_type="application/json").json()
    assert [s["name"] for s in scene["scenes"]] == ["Scene 1: The docks"]
    roll = append(party.pc)[0]
    ended = gm.post(url + "/current/end", content_type="application/json").json()
    assert ended["ended"] and ended["ended_entry"]

    listed = player.get(url).json()
    assert listed["current"] is None and [s["number"] for s in listed["sessions"]] == [1]
    # The log's endpoint takes the same filters as the page: the scene holds the roll.
    log = player.get(listed["sessions"][0]["scenes"][0]["log_url"]).json()
    assert [e["kind"] for e in log["entries"]] == ["roll", "scene"]
    assert log["entries"][0]["id"] == token(roll)
    assert player.get(reverse("api:log", args=[campaign.pk]), {"session": 4}).status_code == 422


def test_years_of_sessions_keep_the_log_and_the_list_short(client, party):
    """Sixty sessions: the filter offers the newest fifty (and any chosen one), the API pages."""
    from rolls.sessions.state import LISTED

    for number in range(1, 61):
        actions.start_session(party.gm, party.campaign, f"Night {number}")
    actions.mark_scene(party.gm, party.campaign, "Last scene")
    client.force_login(party.player)
    page = log_page(client, party.campaign)
    select = re.search(r'<select name="session".*?</select>', page, re.S).group(0)
    assert select.count("<option") == LISTED + 1  # and "All sessions"
    assert "Session 60: Night 60" in select and "Night 10<" not in select
    page = log_page(client, party.campaign, session=3)
    assert "Session 3: Night 3" in re.search(
        r'<select name="session".*?</select>', page, re.S
    ).group(0)
    assert len(cards(page)) == 2  # its start and its end
    for number in ("99999999999999999999", "0", "-1", "x"):
        assert "Select a valid choice" in log_page(client, party.campaign, session=number)

    api = api_client(party.player)
    url = reverse("api:sessions", args=[party.campaign.pk])
    first = api.get(url, {"limit": 25}).json()
    assert [s["number"] for s in first["sessions"]] == list(range(60, 35, -1))
    assert first["current"]["scenes"][0]["name"] == "Scene 1: Last scene"
    rest = api.get(url, {"limit": 50, "before": first["next"]}).json()
    assert [s["number"] for s in rest["sessions"]] == list(range(35, 0, -1))
    assert rest["next"] is None and rest["sessions"][-1]["ended"]
    assert api.get(url, {"limit": 51}).status_code == 422
