"""Calls for a roll: the GM creates one, the targeted players see a prompt that opens a prefilled
panel, the roll links back, the dashboard shows who rolled and how, and the GM closes it."""

import pytest
from django.urls import reverse

from log.models import RollEntry
from rolls.models import RollCall
from rolls.table.calls import difficulty_label
from sheets.models import Role, System
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    MembershipFactory,
    RollCallFactory,
    UserFactory,
)
from tests.rolls.helpers import latest, panel_url, roll_url, verify_like_an_outside_script

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def gm_of(campaign):
    return campaign.memberships.get(role=Role.GM).user


def call_data(characters, skill="Athletics", difficulty=3, **extra):
    return {
        "call-characters": [c.pk for c in characters],
        "call-skill": skill,
        "call-difficulty": difficulty,
        "call-note": "",
    } | extra


def test_gm_creates_a_call_and_only_targets_are_prompted(client, party):
    campaign, ada, bo = party.campaign, party.pc, party.other_pc
    client.force_login(gm_of(campaign))
    url = reverse("call_create", args=[campaign.pk])
    response = client.post(url, call_data([ada], difficulty=3))
    assert response.status_code == 302
    call = RollCall.objects.get()
    assert (call.skill, call.difficulty, call.created_by) == ("Athletics", 3, gm_of(campaign))
    assert [t.character for t in call.targets.all()] == [ada]
    # Ada's player sees the prompt on the sheet; Bo's doesn't; nor does an observer on Ada's.
    client.force_login(ada.owner)
    body = client.get(ada.get_absolute_url()).content.decode()
    assert "The GM asks" in body and "CL 3" in body and f"call={call.pk}" in body
    client.force_login(bo.owner)
    assert "The GM asks" not in client.get(bo.get_absolute_url()).content.decode()
    observer = MembershipFactory(campaign=campaign, role=Role.OBSERVER).user
    client.force_login(observer)
    assert "The GM asks" not in client.get(ada.get_absolute_url()).content.decode()
    # The prompt's own partial refreshes live.
    client.force_login(ada.owner)
    partial = client.get(reverse("character_prompts", args=[ada.pk]), headers=HX)
    assert 'hx-trigger="sse:call, sse:contest, sse:sheet"' in partial.content.decode()


def test_create_refuses_bad_input_with_a_message(client, party):
    campaign, ada = party.campaign, party.pc
    client.force_login(gm_of(campaign))
    url = reverse("call_create", args=[campaign.pk])
    response = client.post(url, call_data([ada], difficulty=9))
    assert response.status_code == 400
    assert "less than or equal to 8" in response.content.decode()
    response = client.post(url, call_data([]), headers=HX)
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not RollCall.objects.exists()


@pytest.mark.parametrize("forged", [2**63, 10**30, -(2**63) - 1])
def test_an_out_of_range_character_id_is_refused_beside_the_field(client, party, forged):
    # Found by tests/test_bad_input_rolls.py: SQLite raised OverflowError (a 500) on the id.
    campaign, ada = party.campaign, party.pc
    client.force_login(gm_of(campaign))
    data = call_data([ada]) | {"call-characters": [ada.pk, forged]}
    response = client.post(reverse("call_create", args=[campaign.pk]), data)
    assert response.status_code == 400
    assert f"“{forged}” is not a valid value." in response.content.decode()
    assert not RollCall.objects.exists()


def test_characters_lacking_the_skill_are_named(client):
    campaign = CampaignFactory(system=System.DAD6)
    kim = CharacterFactory(campaign=campaign, name="Kim")
    lee = CharacterFactory(campaign=campaign, name="Lee")
    kim.dad6.skills.create(name="Cooking", competence="trained")
    client.force_login(gm_of(campaign))
    response = client.post(
        reverse("call_create", args=[campaign.pk]), call_data([kim, lee], skill="Cooking")
    )
    assert response.status_code == 400
    assert "Lee has no skill called Cooking" in response.content.decode()
    assert not RollCall.objects.exists()


def test_prefilled_panel_locks_the_gms_value_and_the_roll_links_back(client, party, seeded):
    campaign, ada = party.campaign, party.pc
    call = RollCallFactory(campaign=campaign, skill="Athletics", difficulty=4, targets=[ada])
    athletics = ada.cogent.skills.get(name="Athletics")
    client.force_login(ada.owner)
    response = client.get(panel_url(ada, "cogent-skill", athletics) + f"?call={call.pk}")
    form = response.context["form"]
    assert form["challenge_level"].value() == 4 and form.fields["challenge_level"].disabled
    assert "Answering the GM" in response.content.decode()
    # A crafted POST can't lower the Challenge Level (tests/rolls/test_crafted_input.py); the
    # browser leaves the disabled field out.
    data = {"challenge_level": 1, "extra_penalty": 0, "call": call.pk}
    response = client.post(roll_url(ada, "cogent-skill", athletics), data)
    assert response.status_code == 400 and not RollEntry.objects.exists()
    del data["challenge_level"]
    response = client.post(roll_url(ada, "cogent-skill", athletics), data)
    assert response.status_code == 302
    entry = latest()
    assert entry.call == call and entry.options["challenge_level"] == 4
    assert verify_like_an_outside_script(campaign.pk) == 1
    # The prompt is gone, and a second answer is refused.
    assert "The GM asks" not in client.get(ada.get_absolute_url()).content.decode()
    response = client.post(roll_url(ada, "cogent-skill", athletics), data)
    assert response.status_code == 409
    assert "closed, or Ada has already answered it" in response.content.decode()
    # The dashboard shows who rolled and how.
    client.force_login(gm_of(campaign))
    body = client.get(reverse("campaign_dashboard", args=[campaign.pk])).content.decode()
    assert "1 of 1 rolled" in body and entry.get_absolute_url() in body
    assert entry.outcome_label in body


def test_only_targets_answer_and_only_open_calls(client, party):
    campaign, ada, bo = party.campaign, party.pc, party.other_pc
    call = RollCallFactory(campaign=campaign, targets=[ada])
    skill = bo.cogent.skills.get(name="Athletics")
    client.force_login(bo.owner)
    data = {"challenge_level": 1, "extra_penalty": 0, "call": call.pk}
    response = client.post(roll_url(bo, "cogent-skill", skill), data)
    assert response.status_code == 409
    assert "There is no such call for a roll for Bo." in response.content.decode()
    # Another player can't answer for Ada at all.
    ada_skill = ada.cogent.skills.get(name="Athletics")
    assert client.post(roll_url(ada, "cogent-skill", ada_skill), data).status_code == 403
    # Answering with another skill is refused.
    client.force_login(ada.owner)
    other = ada.cogent.skills.get(name="Stealth")
    response = client.post(roll_url(ada, "cogent-skill", other), data)
    assert response.status_code == 409 and "asked for Athletics" in response.content.decode()
    call.close()
    response = client.post(roll_url(ada, "cogent-skill", ada_skill), data)
    assert response.status_code == 409 and "closed" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_the_gm_answers_for_an_npc(client, party, seeded):
    campaign = party.campaign
    gm = gm_of(campaign)
    npc = CharacterFactory(campaign=campaign, owner=gm, is_npc=True, hidden_from_players=True)
    call = RollCallFactory(campaign=campaign, targets=[npc])
    client.force_login(gm)
    assert f"call={call.pk}" in client.get(npc.get_absolute_url()).content.decode()
    skill = npc.cogent.skills.get(name="Athletics")
    data = {"challenge_level": 2, "extra_penalty": 0, "call": call.pk}
    assert client.post(roll_url(npc, "cogent-skill", skill), data).status_code == 302
    assert latest().call == call


def test_close_and_permissions(client, party):
    campaign, ada = party.campaign, party.pc
    call = RollCallFactory(campaign=campaign, targets=[ada])
    close = reverse("call_close", args=[call.pk])
    create = reverse("call_create", args=[campaign.pk])
    client.force_login(UserFactory())
    assert client.post(close).status_code == 404
    assert client.post(create, call_data([ada])).status_code == 404
    for user in (ada.owner, MembershipFactory(campaign=campaign, role=Role.OBSERVER).user):
        client.force_login(user)
        assert client.post(close).status_code == 403
        assert client.post(create, call_data([ada])).status_code == 403
    client.force_login(gm_of(campaign))
    response = client.post(close, headers=HX)
    assert response.status_code == 200 and "closed" in response.content.decode()
    call.refresh_from_db()
    assert not call.is_open
    client.force_login(ada.owner)
    assert "The GM asks" not in client.get(ada.get_absolute_url()).content.decode()


def test_cold_stars_call_prefills_risk_and_ability(client, seeded):
    campaign = CampaignFactory(system=System.COLD_STARS)
    vera = CharacterFactory(campaign=campaign)
    client.force_login(gm_of(campaign))
    data = call_data([vera], skill="Stealth", difficulty=2) | {"call-ability": "perception"}
    assert client.post(reverse("call_create", args=[campaign.pk]), data).status_code == 302
    call = RollCall.objects.get()
    assert difficulty_label(call) == "Risk 2, Perception"
    stealth = vera.cold_stars.skills.get(name="Stealth")
    client.force_login(vera.owner)
    form = client.get(panel_url(vera, "cold-stars-skill", stealth) + f"?call={call.pk}").context[
        "form"
    ]
    assert form["risk"].value() == 2 and form["ability"].value() == "perception"
    # The GM chose the Ability for this call: it is as fixed as the Risk.
    assert form.fields["risk"].disabled and form.fields["ability"].disabled


def test_call_events_on_create_answer_and_close(client, party, seeded, monkeypatch):
    import live

    campaign, ada = party.campaign, party.pc
    published = []
    monkeypatch.setattr(
        live, "publish", lambda *event, cause=None: published.append((*event, cause))
    )
    client.force_login(gm_of(campaign))
    client.post(reverse("call_create", args=[campaign.pk]), call_data([ada]))
    call = RollCall.objects.get()
    client.force_login(ada.owner)
    athletics = ada.cogent.skills.get(name="Athletics")
    data = {"extra_penalty": 0, "call": call.pk}
    assert client.post(roll_url(ada, "cogent-skill", athletics), data).status_code == 302
    client.force_login(gm_of(campaign))
    client.post(reverse("call_close", args=[call.pk]))
    calls = [event for event in published if event[1] == "call"]
    answer = RollEntry.objects.get(call=call)
    # The answer's event names the entry behind it: only who may know of the roll hears of it.
    assert calls == [
        (campaign.pk, "call", call.pk, None),
        (campaign.pk, "call", call.pk, answer.pk),
        (campaign.pk, "call", call.pk, None),
    ]


def test_admin_shows_calls_and_contests_view_only(client):
    from django.urls import reverse

    from tests.factories import ContestFactory, RollCallTargetFactory, UserFactory

    target = RollCallTargetFactory()
    contest = ContestFactory()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for name, obj in (("rollcall", target.call), ("contest", contest)):
        assert client.get(reverse(f"admin:rolls_{name}_changelist")).status_code == 200
        detail = client.get(reverse(f"admin:rolls_{name}_change", args=[obj.pk]))
        assert detail.status_code == 200 and b'name="_save"' not in detail.content
        assert client.get(reverse(f"admin:rolls_{name}_add")).status_code == 403
        delete = client.post(reverse(f"admin:rolls_{name}_delete", args=[obj.pk]), {"post": "yes"})
        assert delete.status_code == 403
        assert type(obj).objects.filter(pk=obj.pk).exists()
