"""The GM table's key rows and quick rolls (issue 34, item 6): each card lists the character's
best rows with their odds, and an NPC's roll from its card through the roll service — the GM
only, answered with the card (htmx) or a redirect to it (a plain POST), hidden NPCs' rolls kept
from the players."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from log.models import Kind, RollEntry, Visibility
from rolls.rolling.display import bands
from rolls.templatetags.rolls_tags import headline
from rules import cogent
from sheets.models import System
from sheets.systems import rule_system_of
from tests.factories import CampaignFactory, CharacterFactory
from tests.rolls.helpers import athletics, gm_of, token

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def quick_url(character):
    return reverse("table_roll", args=[character.pk])


def dashboard(campaign):
    return reverse("campaign_dashboard", args=[campaign.pk])


def rated(character, **ratings):
    """Rate some of a Cogent character's core skills (a blank sheet has every one at 0)."""
    for name, rating in ratings.items():
        character.cogent.skills.filter(name=name).update(rating=rating)


def row_value(character, name="Athletics"):
    return f"cogent-skill:{character.cogent.skills.get(name=name).pk}"


def test_cards_list_the_best_rows_with_their_odds(client, party):
    rated(party.npc, Athletics=3, Stealth=1, Perception=2)
    client.force_login(party.gm)
    rows = {r["character"]: r for r in client.get(dashboard(party.campaign)).context["rows"]}
    keys = rows[party.npc]["key_rows"]
    assert [k["label"] for k in keys] == ["Athletics", "Perception", "Stealth"]
    skill = athletics(party.npc)
    expected = headline(bands(cogent.odds(skill.pool, challenge_level=1)))
    assert keys[0]["chances"] == expected.split(" · ")
    assert keys[0]["dice"] == f"{skill.pool}d6"
    assert rows[party.pc]["key_rows"] == []  # a blank sheet: nothing rated


def test_only_an_npc_s_rows_have_roll_buttons(client, party):
    rated(party.npc, Athletics=2)
    rated(party.pc, Athletics=2)
    client.force_login(party.gm)
    body = client.get(dashboard(party.campaign)).content.decode()
    assert body.count('name="row"') == 1
    assert f'value="{row_value(party.npc)}"' in body
    assert quick_url(party.npc) in body and quick_url(party.pc) not in body


def test_the_gm_rolls_an_npc_from_its_card(client, party, seeded):
    rated(party.npc, Athletics=2)
    client.force_login(party.gm)
    response = client.post(quick_url(party.npc), {"row": row_value(party.npc)}, headers=HX)
    assert response.status_code == 200
    entry = RollEntry.objects.get(character=party.npc)
    assert (entry.kind, entry.label, entry.visibility) == (Kind.ROLL, "Athletics", "public")
    assert entry.roller == party.gm and entry.options["challenge_level"] == 1  # the defaults
    body = response.content.decode()
    assert body.strip().startswith('<article class="table-character is-npc" id="char-')
    assert f'id="entry-{token(entry)}"' in body  # on top of its last rolls
    assert f"Rolled Athletics: <strong>{entry.outcome_label}</strong>" in body
    # Without JavaScript: a plain POST, then back to the card; the message says what came up.
    response = client.post(quick_url(party.npc), {"row": row_value(party.npc)}, follow=True)
    assert response.redirect_chain[-1][0].endswith(f"#char-{party.npc.pk}")
    newest = RollEntry.objects.filter(character=party.npc).latest("pk")
    assert f"Warden rolled Athletics: {newest.outcome_label}." in response.content.decode()


def test_secret_quick_rolls(client, party):
    rated(party.npc, Athletics=2)
    client.force_login(party.gm)
    data = {"row": row_value(party.npc), "visibility": Visibility.SECRET}
    assert client.post(quick_url(party.npc), data).status_code == 302
    entry = RollEntry.objects.get(character=party.npc)
    assert entry.visibility == Visibility.SECRET
    client.force_login(party.player)
    log = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
    assert f'id="entry-{token(entry)}"' not in log


def test_a_hidden_npc_s_quick_roll_stays_hidden(client, party):
    rated(party.hidden_npc, Athletics=2)
    client.force_login(party.gm)
    data = {"row": row_value(party.hidden_npc)}
    # (followed: the GM's "Spy rolled …" message is read on the GM's page, not left behind)
    assert client.post(quick_url(party.hidden_npc), data, follow=True).status_code == 200
    entry = RollEntry.objects.get(character=party.hidden_npc)
    assert entry.visibility == Visibility.PUBLIC and entry.hidden_character
    for user in (party.player, party.observer):
        membership = party.campaign.memberships.get(user=user)
        assert not RollEntry.objects.visible_to(membership).filter(pk=entry.pk).exists()
        client.force_login(user)
        log = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
        assert "Spy" not in log and f"entry-{token(entry)}" not in log


def test_who_may_quick_roll(client, party):
    rated(party.npc, Athletics=2)
    rated(party.hidden_npc, Athletics=2)
    rated(party.pc, Athletics=2)

    def post(character, user):
        client.force_login(user)
        return client.post(quick_url(character), {"row": row_value(character)}).status_code

    client.logout()
    assert client.post(quick_url(party.npc), {"row": row_value(party.npc)}).status_code == 302
    assert post(party.npc, party.nonmember) == 404  # nothing's existence leaks
    assert post(party.hidden_npc, party.player) == 404  # as its sheet is
    assert post(party.npc, party.player) == 403
    assert post(party.npc, party.observer) == 403
    assert post(party.pc, party.player) == 403  # its own player rolls it from the sheet
    assert post(party.pc, party.gm) == 403  # the table's quick rolls are the NPCs'
    assert not RollEntry.objects.exists()
    assert client.get(quick_url(party.npc)).status_code == 405


@pytest.mark.parametrize(
    "row",
    ["", "Athletics", "cogent-skill:", "cogent-skill:x", "cogent-skill:²", "cogent-skill:1" * 10],
)
def test_a_row_that_isn_t_one_is_a_400(client, party, row):
    client.force_login(party.gm)
    response = client.post(quick_url(party.npc), {"row": row})
    assert response.status_code == 400
    assert "must name one of the character's rows" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_another_sheet_s_row_or_kind_is_a_404(client, party):
    client.force_login(party.gm)
    for row in (
        row_value(party.pc),  # another character's row
        f"dad6-skill:{athletics(party.npc).pk}",  # a kind of another system
        "cogent-skill:99999999",
    ):
        assert client.post(quick_url(party.npc), {"row": row}).status_code == 404
    assert not RollEntry.objects.exists()


def test_a_visibility_the_gm_may_not_choose_is_refused_beside_the_rows(client, party):
    client.force_login(party.gm)
    data = {"row": row_value(party.npc), "visibility": "blind"}
    response = client.post(quick_url(party.npc), data)
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    response = client.post(quick_url(party.npc), data, headers=HX)
    assert response.status_code == 200 and 'role="alert"' in response.content.decode()
    assert not RollEntry.objects.exists()


def test_a_campaign_of_public_rolls_offers_no_choice(client, party):
    party.campaign.force_public_rolls = True
    party.campaign.save()
    rated(party.npc, Athletics=2)
    client.force_login(party.gm)
    body = client.get(dashboard(party.campaign)).content.decode()
    assert 'name="row"' in body and 'name="visibility"' not in body
    data = {"row": row_value(party.npc), "visibility": Visibility.SECRET}
    client.post(quick_url(party.npc), data)
    assert RollEntry.objects.get(character=party.npc).visibility == Visibility.PUBLIC


@pytest.mark.parametrize("system", [System.COGENT, System.DAD6, System.COLD_STARS])
def test_every_system_s_npc_rolls_from_the_table(client, system, seeded):
    campaign = CampaignFactory(system=system)
    gm = gm_of(campaign)
    npc = CharacterFactory(campaign=campaign, owner=gm, is_npc=True)
    sheet = rule_system_of(campaign).sheet_of(npc)
    if system == System.COGENT:
        rated(npc, Athletics=2)
    elif system == System.DAD6:
        sheet.skills.create(name="Climb", competence="expert")
    else:
        sheet.skills.filter(name="Piloting").update(trained=True, rating=2)
    client.force_login(gm)
    row = client.get(dashboard(campaign)).context["rows"][0]
    assert len(row["key_rows"]) == 1
    value = row["key_rows"][0]["value"]
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(quick_url(npc), {"row": value}, headers=HX)
    assert response.status_code == 200
    entry = RollEntry.objects.get(character=npc)
    assert f'id="entry-{token(entry)}"' in response.content.decode()
    # The roll and the card it answers with, whatever the system: a fixed number of queries.
    assert len(ctx.captured_queries) <= 20


def test_a_cards_news_brings_its_key_rows(client, party, seeded):
    """A roll may move the odds its card shows (a spend): the news the live table fetches for a
    roll carries the key rows out of band with the figures and resources."""
    rated(party.npc, Athletics=2)
    client.force_login(party.gm)
    client.post(quick_url(party.npc), {"row": row_value(party.npc)})
    entry = RollEntry.objects.get(character=party.npc)
    url = reverse("table_character", args=[party.npc.pk]) + f"?entry={token(entry)}"
    body = client.get(url, headers=HX).content.decode()
    assert f'id="char-{party.npc.pk}-rows" hx-swap-oob="true"' in body
    assert f'value="{row_value(party.npc)}"' in body
