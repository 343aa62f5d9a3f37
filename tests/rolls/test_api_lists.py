"""The API's options that take several values (docs/api.md): a list in a roll's body and a
repeated query parameter, as the panel's tick boxes; declared as lists in the schema, for every
system's panel. A repeated single-valued parameter is refused, never read as its last value."""

import pytest
from django import forms
from django.test import Client
from django.urls import reverse

from log.models import RollEntry
from rules import cogent
from sheets.models import ApiToken, Scope, System
from sheets.systems import rule_system
from tests.factories import CharacterFactory, CogentSubSkillFactory

pytestmark = pytest.mark.django_db

THREE = ["high_ground", "flanking", "charging"]  # +2 +2 +1


@pytest.fixture
def fighter():
    """Medium at 1 with Strength and Reflex 1: 3 + 1 + 2 + 1 (Medium) = 7 dice."""
    character = CharacterFactory(campaign__system=System.COGENT)
    sheet = character.cogent
    sheet.strength, sheet.reflex = 1, 1
    sheet.save()
    vocation = sheet.vocations.create(name="Soldier", attribute="strength", rating=1)
    medium = CogentSubSkillFactory(
        vocation=vocation, kind="combat", name="Medium", attribute="", rating=1, weapon="Medium"
    )
    _, raw = ApiToken.issue(character.owner, name="test", scope=Scope.ROLL)
    return character, medium, Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def urls(character, row):
    args = [character.pk, "cogent-subskill", row.pk]
    return reverse("api:target", args=args), reverse("api:roll", args=args)


def test_a_roll_takes_every_circumstance_in_a_list(fighter, seeded):
    character, medium, client = fighter
    _, rolls = urls(character, medium)
    response = client.post(
        rolls, {"challenge_level": 2, "circumstances": THREE}, content_type="application/json"
    )
    assert response.status_code == 201, response.content
    entry = RollEntry.objects.get()
    assert entry.options["circumstances"] == THREE
    assert entry.pool == {"dice": 7 + cogent.circumstance_dice(THREE)}
    assert "+ 2 high ground + 2 flanking + 1 charging = 12d6" in entry.breakdown
    # One circumstance is a list of one; a bad one gets the panel's words beside the option.
    one = client.post(rolls, {"circumstances": ["flanking"]}, content_type="application/json")
    assert one.status_code == 201 and RollEntry.objects.latest("pk").pool == {"dice": 9}
    bad = client.post(
        rolls, {"circumstances": ["flanking", "ambush"]}, content_type="application/json"
    )
    assert bad.status_code == 422 and "circumstances" in bad.json()["errors"]
    retired = client.post(rolls, {"circumstances": ["dual_main"]}, content_type="application/json")
    assert retired.status_code == 422
    assert "choose the secondary weapon" in retired.json()["errors"]["circumstances"][0]
    assert RollEntry.objects.count() == 2


def test_a_target_reads_a_repeated_parameter_as_the_list(fighter):
    character, medium, client = fighter
    target, _ = urls(character, medium)
    plan = client.get(
        target + "?circumstances=high_ground&circumstances=flanking&circumstances=charging"
    )
    assert plan.status_code == 200, plan.content
    assert plan.json()["pool"] == {"dice": 12}
    option = next(o for o in plan.json()["options"] if o["name"] == "circumstances")
    assert option["multiple"] is True and option["value"] == THREE
    single = next(o for o in plan.json()["options"] if o["name"] == "challenge_level")
    assert single["multiple"] is False
    assert client.get(target, {"circumstances": "charging"}).json()["pool"] == {"dice": 8}


def test_a_repeated_single_option_is_refused_not_read_as_its_last(fighter):
    character, medium, client = fighter
    target, rolls = urls(character, medium)
    repeated = client.get(target + "?challenge_level=1&challenge_level=5")
    assert repeated.status_code == 422, repeated.content
    assert repeated.json()["errors"] == {"challenge_level": ["Give a single value."]}
    asked = client.get(target + "?call=1&call=2")
    assert asked.status_code == 422 and asked.json()["errors"] == {"call": ["Give a single value."]}
    nested = client.post(rolls, {"challenge_level": [1, 2]}, content_type="application/json")
    assert nested.status_code == 422 and "challenge_level" in nested.json()["errors"]
    assert not RollEntry.objects.exists()


def multi_valued(system):
    form = rule_system(system).rolling.form_class
    return {n for n, f in form.base_fields.items() if isinstance(f, forms.MultipleChoiceField)}


def is_list(schema):
    return schema.get("type") == "array" or any(
        part.get("type") == "array" for part in schema.get("anyOf", ())
    )


@pytest.mark.parametrize("system", System.values)
def test_every_multi_valued_option_is_a_list_in_the_schema(client, system):
    schema = client.get("/api/v1/openapi.json").json()
    path = "/api/v1/characters/{pk}/targets/{kind}/{target_pk}"
    body = schema["components"]["schemas"]["RollIn"]["properties"]
    query = {
        p["name"]: p["schema"]
        for p in schema["paths"][path]["get"]["parameters"]
        if p["in"] == "query"
    }
    for name in multi_valued(system):
        assert is_list(body[name]), (system, name)
        assert is_list(query[name]), (system, name)
    # And nothing single-valued is declared a list.
    everyone = set().union(*(multi_valued(s) for s in System.values))
    assert {name for name, part in body.items() if is_list(part)} == everyone
    assert {name for name, part in query.items() if is_list(part)} == everyone
