"""Statistics pages: figures on a hand-made set of entries, the fairness chart and table,
visibility (hidden rolls don't count for those who can't read them), permissions, query counts."""

import math
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from log.models import Visibility
from rolls.log.statistics import chi_square_sf
from sheets.models import Role, System
from tests.factories import CharacterFactory, MembershipFactory, RollEntryFactory

pytestmark = pytest.mark.django_db

HALF = {"success": "1/2", "failure": "1/3", "critical_failure": "1/6"}
QUARTER = {"success": "1/4", "failure": "3/4"}


def d6(*faces):
    return [{"kind": "d6", "face": f, "reading": "win" if f >= 4 else "loss"} for f in faces]


@pytest.fixture
def rolls(party):
    ada, bo = party.pc, party.other_pc
    r1 = RollEntryFactory(character=ada, outcome="success", odds_table=HALF, faces=d6(6, 5, 1))
    RollEntryFactory(
        character=ada, kind="destiny", follows=r1, outcome="success", odds_table=HALF,
        faces=d6(6, 5, 1),
    )  # fmt: skip
    r2 = RollEntryFactory(character=ada, outcome="failure", odds_table=QUARTER, faces=d6(2, 3))
    # Destiny turns the failure into a success: a resource spent, not luck — still a failure here.
    RollEntryFactory(
        character=ada, kind="destiny", follows=r2, outcome="success", odds_table=QUARTER,
        faces=d6(2, 3),
    )  # fmt: skip
    RollEntryFactory(character=bo, outcome="success", odds_table=QUARTER, faces=d6(4))
    RollEntryFactory(character=bo, kind="auto_pass", outcome="success", odds="1/1", faces=[])
    # Hidden from players: a GM-only roll of Ada's (ana reads it, ben doesn't), a secret GM roll.
    RollEntryFactory(
        character=ada, outcome="success", odds_table=HALF, faces=d6(6, 6),
        visibility=Visibility.GM_ONLY,
    )  # fmt: skip
    RollEntryFactory(
        character=party.hidden_npc, user=party.gm, outcome="failure", odds_table=HALF,
        faces=d6(1), visibility=Visibility.SECRET,
    )  # fmt: skip


def stats(client, campaign):
    return client.get(reverse("campaign_stats", args=[campaign.pk]))


def figure(page, name):
    match = re.search(rf"<dt>{re.escape(name)}</dt><dd>([^<]*)</dd>", page)
    return match.group(1)


def test_campaign_figures_for_a_player(client, party, rolls):
    client.force_login(party.other_pc.owner)  # ben reads only the three public trials
    page = stats(client, party.campaign).text
    assert figure(page, "Rolls") == "3"
    assert figure(page, "Successes") == "2"
    assert figure(page, "Success rate") == "66.7%"
    assert figure(page, "Expected rate") == f"{(0.5 + 0.25 + 0.25) / 3 * 100:.1f}%"
    z = (2 - 1.0) / math.sqrt(0.25 + 0.1875 + 0.1875)
    assert figure(page, "Luck (z)") == f"+{z:.1f}"
    assert f"{z:.1f} standard deviations luckier than expected" in page
    # Faces: 6 5 1 | 2 3 | 4 — the destiny entries' repeated dice are not counted again.
    table_rows = re.findall(r"<tr><th scope=\"row\">(\d)</th><td>(\d+)</td>", page)
    assert [int(n) for _, n in table_rows] == [1, 1, 1, 1, 1, 1]
    assert "Too few dice for a reliable test" in page
    assert "Spy" not in page


def test_gm_and_roller_count_what_they_read(client, party, rolls):
    client.force_login(party.pc.owner)  # ana also reads her GM-only roll
    assert figure(stats(client, party.campaign).text, "Rolls") == "4"
    client.force_login(party.gm)
    page = stats(client, party.campaign).text
    assert figure(page, "Rolls") == "5"
    assert figure(page, "Successes") == "3"
    assert "Spy" in page  # by-character table


def test_by_character_table_and_character_page(client, party, rolls):
    client.force_login(party.other_pc.owner)
    page = stats(client, party.campaign).text
    ada_url = reverse("character_stats", args=[party.pc.pk])
    assert f'<a href="{ada_url}">Ada</a>' in page
    ada_page = client.get(ada_url).text
    assert figure(ada_page, "Rolls") == "2"
    assert figure(ada_page, "Successes") == "1"
    assert figure(ada_page, "Success rate") == "50.0%"
    assert figure(ada_page, "Expected rate") == "37.5%"


def test_fairness_chart_and_chi_square(client, party):
    # 60 d6 with known counts: 5, 8, 9, 8, 10, 20 → χ² = 13.4 on 5 df.
    counts = {1: 5, 2: 8, 3: 9, 4: 8, 5: 10, 6: 20}
    faces = [face for face, n in counts.items() for _ in range(n)]
    for start in range(0, 60, 6):
        RollEntryFactory(character=party.pc, faces=d6(*faces[start : start + 6]))
    client.force_login(party.pc.owner)
    page = stats(client, party.campaign).text
    assert "Pearson's chi-square 13.40 with 5 degrees of freedom" in page
    assert f"p = {chi_square_sf(13.4, 5):.4f}" in page
    assert "Unusual for fair dice" in page
    assert "Too few dice" not in page
    svg = re.search(r"<svg class=\"fairness-chart\".*?</svg>", page, re.S).group(0)
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert svg.count('<rect class="chart-bar"') == 6
    assert 'class="chart-expected"' in svg
    assert "style=" not in page and "<script>" not in page.replace("<script src", "")
    assert re.search(r"<td>20</td><td>10\.0</td><td>\+10\.0</td>", page)


def test_cold_stars_dice_pooled_and_per_kind(client):
    ada = CharacterFactory(campaign__system=System.COLD_STARS)
    RollEntryFactory(
        character=ada,
        faces=[
            {"kind": "ability", "face": 3, "reading": "blank"},
            {"kind": "skill", "face": 10, "reading": "critical_success"},
            {"kind": "risk", "face": 1, "reading": "critical_failure"},
        ],
        odds_table={"success": "1/2", "failure": "1/2"},
    )
    client.force_login(ada.owner)
    page = stats(client, ada.campaign).text
    for name in ("d10 (all kinds)", "d10 Ability dice", "d10 Skill dice", "d10 Risk dice"):
        assert name in page
    assert "with 9 degrees of freedom" in page


def test_empty_stats(client, party):
    client.force_login(party.pc.owner)
    page = stats(client, party.campaign).text
    assert figure(page, "Rolls") == "0"
    assert figure(page, "Success rate") == "—"
    assert "No rolls with recorded odds yet." in page
    assert "No dice thrown yet" in page


def test_permissions(client, party, rolls):
    spy_url = reverse("character_stats", args=[party.hidden_npc.pk])
    ada_url = reverse("character_stats", args=[party.pc.pk])
    campaign_url = reverse("campaign_stats", args=[party.campaign.pk])
    client.force_login(MembershipFactory().user)  # a member of another campaign
    for url in (spy_url, ada_url, campaign_url):
        assert client.get(url).status_code == 404
    client.force_login(party.pc.owner)
    assert client.get(spy_url).status_code == 404  # hidden NPC
    assert client.get(ada_url).status_code == 200
    observer = MembershipFactory(campaign=party.campaign, role=Role.OBSERVER).user
    client.force_login(observer)
    assert client.get(campaign_url).status_code == 200
    client.force_login(party.gm)
    page = client.get(spy_url).text
    assert figure(page, "Rolls") == "1"
    client.logout()
    assert client.get(campaign_url).status_code == 302


def count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_query_counts_fixed(client, party):
    ada = party.pc
    client.force_login(ada.owner)
    campaign_url = reverse("campaign_stats", args=[party.campaign.pk])
    character_url = reverse("character_stats", args=[ada.pk])
    RollEntryFactory(character=ada, faces=d6(1, 2))
    one = count(client, campaign_url), count(client, character_url)
    for i in range(20):
        RollEntryFactory(character=party.other_pc if i % 2 else ada, faces=d6(3, 4))
    # campaign: session, its user, the heavy-read count, membership+campaign, the filter form's
    # characters and players (also the readable characters the table links), its skills, the one
    # aggregate; character: session, its user, the heavy-read count, character+campaign+membership,
    # the one aggregate
    assert (count(client, campaign_url), count(client, character_url)) == one == (7, 5)
    # A filter adds no query.
    filtered = f"{campaign_url}?character={ada.pk}&outcome=any_success&date_from=2000-01-01"
    assert count(client, filtered) == 7
