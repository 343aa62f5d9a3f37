"""Every form's validation, through the HTTP surface where the form lives on a page."""

import re

import pytest
from django.urls import reverse

from sheets.forms import (
    CampaignForm,
    CampaignSkillForm,
    CogentSheetForm,
    CogentSkillForm,
    CogentSubSkillForm,
    CogentSubSkillRatingForm,
    CogentVocationForm,
    ColdStarsDomainForm,
    ColdStarsSheetForm,
    ColdStarsSkillForm,
    Dad6SheetForm,
    Dad6SkillForm,
    InviteForm,
    SignupForm,
)
from sheets.models import System
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    CogentSubSkillFactory,
    CogentVocationFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def errors(form):
    assert not form.is_valid()
    return form.errors


def test_signup_form_requires_email_and_matching_passwords():
    e = errors(SignupForm({"username": "x", "password1": "a-long-pass-1", "password2": "other"}))
    assert "email" in e and "password2" in e


def test_campaign_form_requires_a_known_system():
    assert "system" in errors(CampaignForm({"name": "X", "system": "d20"}))
    assert "name" in errors(CampaignForm({"name": "", "system": "dad6"}))


def test_campaign_system_is_locked_once_a_character_exists():
    character = CharacterFactory(campaign__system=System.COGENT)
    campaign = character.campaign
    form = CampaignForm({"name": "Renamed", "system": "dad6"}, instance=campaign)
    assert form.fields["system"].disabled
    assert form.is_valid()
    form.save()
    campaign.refresh_from_db()
    assert (campaign.name, campaign.system) == ("Renamed", "cogent")


def test_campaign_system_can_change_before_any_character():
    campaign = CampaignFactory(system=System.COGENT)
    form = CampaignForm({"name": campaign.name, "system": "dad6"}, instance=campaign)
    assert form.is_valid()
    form.save()
    campaign.refresh_from_db()
    assert campaign.system == "dad6"


def test_invite_form_validates_use_limit_and_expiry():
    assert "max_uses" in errors(InviteForm({"role": "player", "max_uses": 0}))
    assert "role" in errors(InviteForm({"role": "gm"}))
    assert "expires_in" in errors(InviteForm({"role": "player", "expires_in": "5"}))
    assert InviteForm({"role": "observer", "expires_in": "7", "max_uses": 3}).is_valid()


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("strength", 5),
        ("reflex", -2),
        ("intelligence", "x"),
        ("destiny_points", 4),
        ("penalty_dice", 21),
    ],
)
def test_cogent_sheet_form_ranges(field, bad):
    sheet = CharacterFactory().cogent
    data = {f: getattr(sheet, f) for f in CogentSheetForm._meta.fields} | {field: bad}
    assert field in errors(CogentSheetForm(data, instance=sheet))


def test_cogent_skill_form_range():
    skill = CharacterFactory().cogent.skills.first()
    assert "rating" in errors(CogentSkillForm({"rating": 5}, instance=skill))
    assert "rating" in errors(CogentSkillForm({"rating": -2}, instance=skill))
    assert CogentSkillForm({"rating": -1}, instance=skill).is_valid()


def test_cogent_vocation_form():
    sheet = CharacterFactory().cogent
    assert "rating" in errors(
        CogentVocationForm({"name": "V", "attribute": "reflex", "rating": 5}, sheet=sheet)
    )
    assert "attribute" in errors(
        CogentVocationForm({"name": "V", "attribute": "", "rating": 1}, sheet=sheet)
    )
    CogentVocationForm({"name": "Pilot", "attribute": "reflex", "rating": 1}, sheet=sheet).save()
    assert "name" in errors(
        CogentVocationForm({"name": "pilot", "attribute": "reflex", "rating": 1}, sheet=sheet)
    )


def test_sub_skill_cannot_exceed_its_vocation():
    vocation = CogentVocationFactory(rating=2)
    data = {"kind": "vocational", "name": "Surgery", "attribute": "reflex", "rating": 3}
    assert "above its vocation" in errors(CogentSubSkillForm(data, vocation=vocation))["rating"][0]
    sub = CogentSubSkillFactory(vocation=vocation, rating=1)
    e = errors(CogentSubSkillRatingForm({"rating": 3}, instance=sub))
    assert "above its vocation" in e["rating"][0]


def test_sub_skill_shapes():
    vocation = CogentVocationFactory(rating=4)
    form = CogentSubSkillForm
    assert "combat_skill" in errors(form({"kind": "combat", "rating": 1}, vocation=vocation))
    assert "combat_skill" in errors(
        form({"kind": "combat", "combat_skill": "Lightsaber", "rating": 1}, vocation=vocation)
    )
    e = errors(form({"kind": "vocational", "rating": 1}, vocation=vocation))
    assert "name" in e and "attribute" in e
    ok = form({"kind": "combat", "combat_skill": "Reach", "rating": 2}, vocation=vocation)
    assert ok.is_valid(), ok.errors
    sub = ok.save()
    assert (sub.name, sub.attribute, sub.slot) == ("Reach", "", 1)
    dup = form({"kind": "combat", "combat_skill": "Reach", "rating": 1}, vocation=vocation)
    assert "combat_skill" in errors(dup)


def test_a_vocation_holds_at_most_four_sub_skills():
    vocation = CogentVocationFactory(rating=4)
    for _ in range(4):
        CogentSubSkillFactory(vocation=vocation)
    data = {"kind": "combat", "combat_skill": "Small", "rating": 1}
    e = errors(CogentSubSkillForm(data, vocation=vocation))
    assert "at most 4 sub-skills" in e["__all__"][0]


def test_dad6_forms():
    character = CharacterFactory(campaign__system=System.DAD6)
    for level in (0, 21):
        form = Dad6SheetForm({"class_name": "R", "level": level}, instance=character.dad6)
        assert "level" in errors(form)
    # An invalid ModelForm leaves its values on the instance: always work on a fresh row.
    sheet = type(character.dad6).objects.get(pk=character.pk)
    assert "competence" in errors(Dad6SkillForm({"name": "Lore"}, sheet=sheet))
    assert "name" in errors(Dad6SkillForm({"name": "  ", "competence": "familiar"}, sheet=sheet))
    form = Dad6SkillForm(
        {"name": "Lore", "is_class_skill": "on", "competence": "master"}, sheet=sheet
    )
    skill = form.save()
    # A class skill's competence is derived from the level, never typed.
    assert skill.competence == ""
    assert skill.effective_competence == "trained"
    assert "name" in errors(Dad6SkillForm({"name": "lore", "competence": "familiar"}, sheet=sheet))


def test_cold_stars_sheet_form():
    sheet = CharacterFactory(campaign__system=System.COLD_STARS).cold_stars
    base = {f: 1 for f in ("strength", "agility", "intellect", "presence", "perception", "will")}
    gm_data = base | {"momentum": 3, "momentum_max": 2, "willpower": 0, "willpower_max": 0}
    assert "momentum" in errors(ColdStarsSheetForm(gm_data, instance=sheet, gm=True))
    assert "strength" in errors(
        ColdStarsSheetForm(gm_data | {"strength": 6}, instance=sheet, gm=True)
    )
    # Players edit current values only; the maximum stays the GM's.
    sheet = type(sheet).objects.get(pk=sheet.pk)
    player = ColdStarsSheetForm(base | {"momentum": 1, "willpower": 0}, instance=sheet)
    assert "momentum_max" not in player.fields
    assert "momentum" in errors(player)  # the maximum is still 0


def test_cold_stars_skill_form():
    sheet = CharacterFactory(campaign__system=System.COLD_STARS).cold_stars
    piloting = sheet.skills.get(name="Piloting")
    assert "rating" in errors(ColdStarsSkillForm({"rating": 2}, instance=piloting))  # untrained
    assert "rating" in errors(ColdStarsSkillForm({"trained": "on", "rating": 6}, instance=piloting))
    # Rank 2 needs no domain, rank 3 does (the engine's DOMAIN_FROM_RANK: the one place a rule
    # starting at 2 would show, since a cap of 2 on a rank-2 skill changes no pool).
    assert ColdStarsSkillForm({"trained": "on", "rating": 2}, instance=piloting).is_valid()
    e = errors(ColdStarsSkillForm({"trained": "on", "rating": 3}, instance=piloting))
    assert "needs at least one domain" in e["rating"][0]
    piloting.domains.create(name="Small Craft")
    assert ColdStarsSkillForm({"trained": "on", "rating": 3}, instance=piloting).is_valid()
    # Non-domain skills need no domain at any rank.
    repair = sheet.skills.get(name="Repair")
    assert ColdStarsSkillForm({"trained": "on", "rating": 5}, instance=repair).is_valid()


def test_cold_stars_domain_form():
    skill = CharacterFactory(campaign__system=System.COLD_STARS).cold_stars.skills.get(
        name="Piloting"
    )
    assert "name" in errors(ColdStarsDomainForm({"name": " "}, skill=skill))
    ColdStarsDomainForm({"name": "Small Craft"}, skill=skill).save()
    assert "name" in errors(ColdStarsDomainForm({"name": "small craft"}, skill=skill))


def test_campaign_skill_form():
    campaign = CampaignFactory(system=System.COLD_STARS)
    form = CampaignSkillForm
    data = {"group": "Knowledge", "ability": "intellect"}
    assert "name" in errors(form(data | {"name": "Piloting"}, campaign=campaign))
    assert "ability" in errors(form(data | {"name": "X", "ability": "luck"}, campaign=campaign))
    form(data | {"name": "Xenology"}, campaign=campaign).save()
    assert "name" in errors(form(data | {"name": "xenology"}, campaign=campaign))


def test_invalid_sheet_input_shows_the_message_beside_the_field(client):
    character = CharacterFactory()
    client.force_login(character.owner)
    skill = character.cogent.skills.get(name="Athletics")
    data = {f"skill-{s.pk}-rating": s.rating for s in character.cogent.skills.all()}
    response = client.post(
        reverse("sheet_section", args=[character.pk, "skills"]),
        data | {f"skill-{skill.pk}-rating": 9},
    )
    assert response.status_code == 400
    html = response.content.decode()
    field_id = f"id_skill-{skill.pk}-rating"
    assert re.search(rf'<input[^>]*aria-describedby="[^"]*{field_id}_error', html)
    assert f'id="{field_id}_error"' in html
    assert "Enter a number from −1 to 4." in html
    skill.refresh_from_db()
    assert skill.rating == 0


def test_login_and_signup_pages_label_every_field(client):
    user = UserFactory()
    html = client.get(reverse("login")).content.decode()
    assert '<label for="id_username"' in html and '<label for="id_password"' in html
    html = client.get(reverse("signup")).content.decode()
    assert '<label for="id_email"' in html
    assert user.pk
