"""Permission matrix over every view: anonymous, non-member, observer, player (own and another's
character), GM. Non-members get 404 for anything inside a campaign; members without the right role 403.
"""

import pytest
from django.urls import reverse

from sheets.models import Membership, Role, System
from tests.factories import (
    CampaignSkillFactory,
    CharacterFactory,
    InviteFactory,
)

pytestmark = pytest.mark.django_db

ACTORS = ["anonymous", "nonmember", "observer", "player", "other_player", "gm"]

CONFIRM = {"confirm": "yes"}  # a delete asks first; this is the answer


def client_for(client, parties, actor):
    if actor != "anonymous":
        client.force_login(parties[System.COGENT].user(actor))  # the same people at each
    return client


def check(response, expected):
    if expected == "login":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == expected, response.content[:500]


# Expected status per actor. "ok" views answer 200 on GET; POST-only views are probed with a POST
# whose body is empty (invalid), so an allowed actor gets a 400 form error, never a change.
CAMPAIGN_READ = {
    "anonymous": "login",
    "nonmember": 404,
    "observer": 200,
    "player": 200,
    "other_player": 200,
    "gm": 200,
}
CAMPAIGN_GM_ONLY = {
    "anonymous": "login",
    "nonmember": 404,
    "observer": 403,
    "player": 403,
    "other_player": 403,
    "gm": 200,
}
CAMPAIGN_CREATORS = {
    "anonymous": "login",
    "nonmember": 404,
    "observer": 403,
    "player": 200,
    "other_player": 200,
    "gm": 200,
}


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("campaign_detail", CAMPAIGN_READ),
        ("campaign_edit", CAMPAIGN_GM_ONLY),
        ("character_create", CAMPAIGN_CREATORS),
        ("character_import", CAMPAIGN_CREATORS),
    ],
)
def test_campaign_pages(client, parties, actor, name, expected):
    campaign = parties[System.COGENT].campaign
    response = client_for(client, parties, actor).get(reverse(name, args=[campaign.pk]))
    check(response, expected[actor])


@pytest.mark.parametrize("actor", ACTORS)
def test_campaign_skills_page(client, parties, actor):
    campaign = parties[System.COLD_STARS].campaign
    response = client_for(client, parties, actor).get(
        reverse("campaign_skills", args=[campaign.pk])
    )
    check(response, CAMPAIGN_READ[actor])


@pytest.mark.parametrize("actor", ACTORS)
def test_campaign_skill_add_is_gm_only(client, parties, actor):
    campaign = parties[System.COLD_STARS].campaign
    data = {"name": "Xenolinguistics", "group": "Knowledge", "ability": "intellect"}
    response = client_for(client, parties, actor).post(
        reverse("campaign_skills", args=[campaign.pk]), data
    )
    check(response, {**CAMPAIGN_GM_ONLY, "gm": 302}[actor])
    assert campaign.custom_skills.exists() == (actor == "gm")


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("name", ["member_remove", "member_make_gm"])
def test_member_management_is_gm_only(client, parties, actor, name):
    campaign = parties[System.DAD6].campaign
    target = Membership.objects.get(campaign=campaign, user=parties[System.COGENT].other_player)
    url = reverse(name, args=[campaign.pk, target.pk])
    c = client_for(client, parties, actor)
    check(c.get(url), CAMPAIGN_GM_ONLY[actor])
    response = c.post(url)
    check(response, {**CAMPAIGN_GM_ONLY, "gm": 302}[actor])
    target_role = Membership.objects.filter(pk=target.pk).values_list("role", flat=True).first()
    if actor != "gm":
        assert target_role == Role.PLAYER
    elif name == "member_remove":
        assert target_role is None
    else:
        assert target_role == Role.GM


@pytest.mark.parametrize("actor", ACTORS)
def test_invite_create_and_revoke_are_gm_only(client, parties, actor):
    campaign = parties[System.COGENT].campaign
    invite = InviteFactory(campaign=campaign)
    c = client_for(client, parties, actor)
    check(
        c.post(reverse("invite_create", args=[campaign.pk]), {"role": "player"}),
        {**CAMPAIGN_GM_ONLY, "gm": 302}[actor],
    )
    check(
        c.post(reverse("invite_revoke", args=[campaign.pk, invite.pk])),
        {**CAMPAIGN_GM_ONLY, "gm": 302}[actor],
    )
    invite.refresh_from_db()
    assert (invite.revoked_at is not None) == (actor == "gm")
    assert campaign.invites.count() == (2 if actor == "gm" else 1)


@pytest.mark.parametrize("actor", ACTORS)
def test_leave(client, parties, actor):
    campaign = parties[System.COGENT].campaign
    expected = {**CAMPAIGN_READ, "gm": 403}
    check(
        client_for(client, parties, actor).get(reverse("campaign_leave", args=[campaign.pk])),
        expected[actor],
    )


# Character pages -------------------------------------------------------------------------------

PC_READ = CAMPAIGN_READ
PC_EDIT = {
    "anonymous": "login",
    "nonmember": 404,
    "observer": 403,
    "player": 200,
    "other_player": 403,
    "gm": 200,
}
HIDDEN_NPC_READ = {
    "anonymous": "login",
    "nonmember": 404,
    "observer": 404,
    "player": 404,
    "other_player": 404,
    "gm": 200,
}


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("system", System.values)
@pytest.mark.parametrize("name", ["character_detail", "character_export"])
def test_character_read(client, parties, actor, system, name):
    c = client_for(client, parties, actor)
    check(c.get(reverse(name, args=[parties[system].pc.pk])), PC_READ[actor])
    check(c.get(reverse(name, args=[parties[system].hidden_npc.pk])), HIDDEN_NPC_READ[actor])


@pytest.mark.parametrize("actor", ACTORS)
def test_character_delete_page(client, parties, actor):
    pc = parties[System.COGENT].pc
    check(
        client_for(client, parties, actor).get(reverse("character_delete", args=[pc.pk])),
        PC_EDIT[actor],
    )


def _edit_urls(parties):
    """Every editing endpoint, each on the player's PC, with a valid body."""
    return (
        _cogent_edit_urls(parties[System.COGENT].pc)
        + _dad6_edit_urls(parties[System.DAD6].pc)
        + _cold_stars_edit_urls(parties[System.COLD_STARS].pc)
    )


def _cogent_edit_urls(cogent):
    vocation = cogent.cogent.vocations.create(name="Surgeon", attribute="intelligence", rating=2)
    sub = vocation.subskills.create(slot=1, kind="combat", name="Small", rating=1)
    injury = cogent.cogent.injuries.create(level=1)
    feeble = cogent.cogent.disabilities.create(name="Feeble", attribute="strength", dice=1)
    return _cogent_sheet_urls(cogent, injury, feeble) + _cogent_vocation_urls(cogent, vocation, sub)


def _cogent_sheet_urls(cogent, injury, feeble):
    """The basics, attributes, injuries, disabilities and skills."""
    return [
        (reverse("character_basics", args=[cogent.pk]), {"basics-name": "Renamed"}),
        (
            reverse("sheet_section", args=[cogent.pk, "attributes"]),
            {
                "sheet-strength": 1,
                "sheet-reflex": 0,
                "sheet-intelligence": 0,
                "sheet-destiny_points": 3,
                "sheet-penalty_dice": 0,
            },
        ),
        (
            reverse("cogent_injury_add", args=[cogent.pk]),
            {"add-injury-level": 2, "add-injury-description": "graze"},
        ),
        (reverse("cogent_injury_delete", args=[cogent.pk, injury.pk]), CONFIRM),
        (
            reverse("cogent_disability_add", args=[cogent.pk]),
            {
                "add-disability-name": "Heavy",
                "add-disability-attribute": "reflex",
                "add-disability-dice": 1,
            },
        ),
        (reverse("cogent_disability_delete", args=[cogent.pk, feeble.pk]), CONFIRM),
        (
            reverse("sheet_section", args=[cogent.pk, "skills"]),
            {f"skill-{s.pk}-rating": 3 for s in cogent.cogent.skills.all()},
        ),
    ]


def _cogent_vocation_urls(cogent, vocation, sub):
    """The vocations and their sub-skills: the section's Save, then adds, then removes."""
    return [
        # The Vocations section saves every vocation and sub-skill of the sheet: before any is
        # added below.
        (
            reverse("sheet_section", args=[cogent.pk, "vocations"]),
            {
                f"vocation-{vocation.pk}-name": "Surgeon",
                f"vocation-{vocation.pk}-attribute": "intelligence",
                f"vocation-{vocation.pk}-rating": 3,
                f"subskill-{sub.pk}-rating": 2,
                f"subskill-{sub.pk}-weapon": "Small",
            },
        ),
        (
            reverse("cogent_vocation_add", args=[cogent.pk]),
            {
                "add-vocation-name": "Pilot",
                "add-vocation-attribute": "reflex",
                "add-vocation-rating": 1,
            },
        ),
        (
            reverse("cogent_subskill_add", args=[cogent.pk, vocation.pk]),
            {
                f"add-subskill-{vocation.pk}-kind": "combat",
                f"add-subskill-{vocation.pk}-combat_skill": "Medium",
                f"add-subskill-{vocation.pk}-rating": 1,
            },
        ),
        (reverse("cogent_subskill_delete", args=[cogent.pk, sub.pk]), CONFIRM),
        (reverse("cogent_vocation_delete", args=[cogent.pk, vocation.pk]), CONFIRM),
    ]


def _dad6_edit_urls(dad6):
    dskill = dad6.dad6.skills.create(name="Tracking", is_class_skill=True)
    bane = dad6.dad6.banes.create(description="Owes the ferryman")
    return [
        (
            reverse("sheet_section", args=[dad6.pk, "class"]),
            {"sheet-class_name": "Ranger", "sheet-level": 2},
        ),
        (
            reverse("sheet_section", args=[dad6.pk, "skills"]),
            {f"skill-{dskill.pk}-name": "Tracking", f"skill-{dskill.pk}-is_class_skill": "on"},
        ),
        (
            reverse("dad6_skill_add", args=[dad6.pk]),
            {"add-skill-name": "Cooking", "add-skill-competence": "familiar"},
        ),
        (reverse("dad6_skill_delete", args=[dad6.pk, dskill.pk]), CONFIRM),
        (reverse("dad6_bane_delete", args=[dad6.pk, bane.pk]), CONFIRM),
    ]


def _cold_stars_edit_urls(cold):
    cskill = cold.cold_stars.skills.get(name="Piloting")
    domain = cskill.domains.create(name="Small Craft")
    return [
        (
            reverse("sheet_section", args=[cold.pk, "skills"]),
            {
                f"skill-{s.pk}-{field}": value
                for s in cold.cold_stars.skills.all()
                for field, value in (("trained", "on"), ("rating", 3 if s == cskill else 2))
            },
        ),
        (
            reverse("cold_stars_domain_add", args=[cold.pk, cskill.pk]),
            {f"domain-{cskill.pk}-name": "Racing Skiffs"},
        ),
        (reverse("cold_stars_domain_delete", args=[cold.pk, domain.pk]), CONFIRM),
    ]


@pytest.mark.parametrize("actor", ACTORS)
def test_every_edit_endpoint_on_the_players_character(client, parties, actor):
    c = client_for(client, parties, actor)
    expected = {**PC_EDIT, "player": 302, "gm": 302}[actor]
    for url, data in _edit_urls(parties):
        response = c.post(url, data)
        check(response, expected)
        assert response.status_code != 500, url


@pytest.mark.parametrize("actor", ["observer", "player", "other_player"])
def test_nobody_but_the_gm_edits_a_hidden_npc(client, parties, actor):
    npc = parties[System.COGENT].hidden_npc
    response = client_for(client, parties, actor).post(
        reverse("character_basics", args=[npc.pk]), {"basics-name": "Pwned"}
    )
    assert response.status_code == 404
    npc.refresh_from_db()
    assert npc.name == "Spy"


def test_visible_npc_is_readable_but_not_editable_by_players(client, parties):
    campaign = parties[System.COGENT].campaign
    npc = campaign.new_character(owner=parties[System.COGENT].gm, name="Innkeeper", is_npc=True)
    client.force_login(parties[System.COGENT].player)
    assert client.get(npc.get_absolute_url()).status_code == 200
    response = client.post(reverse("character_basics", args=[npc.pk]), {"basics-name": "X"})
    assert response.status_code == 403


def test_player_cannot_reach_another_campaigns_rows_through_their_own_character(client, parties):
    """Row ids are scoped to the character in the URL: no removing someone else's row by id, and
    a section's Save reads only that character's rows, whatever ids are posted with it."""
    other = CharacterFactory(
        campaign=parties[System.COGENT].campaign, owner=parties[System.COGENT].gm
    )
    foreign_skill = other.cogent.skills.first()
    foreign_vocation = other.cogent.vocations.create(name="Spy", attribute="reflex", rating=1)
    own = parties[System.COGENT].pc
    client.force_login(parties[System.COGENT].player)
    response = client.post(
        reverse("cogent_vocation_delete", args=[own.pk, foreign_vocation.pk]), CONFIRM
    )
    assert response.status_code == 404
    assert other.cogent.vocations.filter(pk=foreign_vocation.pk).exists()
    data = {f"skill-{s.pk}-rating": s.rating for s in own.cogent.skills.all()}
    response = client.post(
        reverse("sheet_section", args=[own.pk, "skills"]),
        data | {f"skill-{foreign_skill.pk}-rating": 4},
    )
    assert response.status_code == 302
    foreign_skill.refresh_from_db()
    assert foreign_skill.rating == 0


def test_system_mismatch_is_404(client, parties):
    dad6 = parties[System.DAD6].pc
    client.force_login(parties[System.COGENT].player)
    assert client.post(reverse("cogent_vocation_add", args=[dad6.pk]), {}).status_code == 404


def test_unknown_ids_are_404_for_members(client, parties):
    client.force_login(parties[System.COGENT].gm)
    assert client.get(reverse("campaign_detail", args=[999999])).status_code == 404
    assert client.get(reverse("character_detail", args=[999999])).status_code == 404


@pytest.mark.parametrize("forged", [2**63, 10**30])
def test_ids_beyond_64_bits_are_404(client, parties, forged):
    # SQLite raised OverflowError (a 500) on such an id in a foreign-key lookup.
    client.force_login(parties[System.COGENT].gm)
    pc = parties[System.COGENT].pc
    for url in (f"/campaigns/{forged}/", f"/campaigns/{forged}/calls/", f"/characters/{forged}/"):
        assert client.get(url).status_code == 404
        assert client.post(url).status_code in (404, 405)
    assert client.get(f"/characters/{pc.pk}/cogent/vocations/{forged}/delete/").status_code == 404


def test_home_lists_only_my_campaigns(client, parties):
    CampaignSkillFactory()  # a campaign the user is not in
    client.force_login(parties[System.COGENT].observer)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    listed = list(response.context["campaigns"])
    assert {c.pk for c in listed} == {v.campaign.pk for v in parties.values()}
    assert {c.my_role for c in listed} == {"observer"}


def test_home_for_anonymous_is_the_welcome_page(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert b"Sign up" in response.content


def test_head_of_home_is_answered_like_get(client, party):
    """``HEAD /`` answered 405 (issue 50): monitors and proxies ask it. Headers as GET's, no
    body; anonymous and logged in alike."""
    for login in (None, party.player):
        if login is not None:
            client.force_login(login)
        head, get = client.head(reverse("home")), client.get(reverse("home"))
        assert head.status_code == get.status_code == 200
        assert head["Content-Type"] == get["Content-Type"]
        assert head.content == b""
