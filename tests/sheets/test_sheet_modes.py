"""The sheet reads like a printed sheet for everyone; the owner and the GM edit one section at a
time (?edit=<section>, one Save per section that saves all its rows or none, Cancel), and long
sheets fold their unused rows."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from sheets.models import System

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
SECTIONS = {
    System.COGENT: ("attributes", "injuries", "skills", "vocations"),
    System.DAD6: ("class", "skills", "banes"),
    System.COLD_STARS: ("abilities", "skills"),
}


def sheet_part(html: str) -> str:
    """The sheet itself: from the sheet partial's root to the end (no page chrome, no dialog)."""
    return html[html.index('<div id="sheet"') :]


def field_tags(html: str) -> list[str]:
    return re.findall(r"<(?:input|select|textarea)\b[^>]*>", html)


class _Fields(HTMLParser):
    """What a browser would submit for one form: every field associated with it (inside it, or
    outside with form="<id>"), with its current value."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside, self.select = form_id, False, None
        self.data: dict[str, str] = {}

    def _ours(self, attrs: dict) -> bool:
        return attrs.get("form") == self.form_id or (self.inside and "form" not in attrs)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("id") == self.form_id:
            self.inside = True
        elif tag == "input" and self._ours(attrs) and attrs.get("name"):
            if attrs.get("type") == "checkbox":
                if "checked" in attrs:
                    self.data[attrs["name"]] = "on"
            else:
                self.data[attrs["name"]] = attrs.get("value") or ""
        elif tag == "select" and self._ours(attrs):
            self.select = attrs["name"]
            self.data.setdefault(self.select, "")
        elif tag == "option" and self.select and "selected" in attrs:
            self.data[self.select] = attrs.get("value") or ""
        elif tag == "textarea" and self._ours(attrs):
            self.data[attrs["name"]] = ""

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def section_data(client, character, section: str) -> dict[str, str]:
    """Open ``section`` in edit mode as a browser would and read what its Save would send."""
    response = client.get(character.get_absolute_url(), {"edit": section})
    assert response.status_code == 200
    parser = _Fields(f"{section}-form")
    parser.feed(response.content.decode())
    return parser.data


def save_url(character, section: str) -> str:
    return reverse("sheet_section", args=[character.pk, section])


# --- read mode --------------------------------------------------------------------------------


@pytest.mark.parametrize("system", list(SECTIONS))
@pytest.mark.parametrize("actor", ["player", "gm", "other_player", "observer"])
def test_read_mode_shows_no_inputs_to_anyone(client, party, system, actor):
    client.force_login(party.user(actor))
    html = sheet_part(client.get(party.pc.get_absolute_url()).content.decode())
    assert field_tags(html) == []
    edits = re.findall(r'href="[^"]*\?edit=([a-z]+)#', html)
    if actor in ("player", "gm"):
        # Every section of the system and the name and notes offer Edit, and nothing else does.
        assert edits == [*SECTIONS[system], "basics"]
    else:
        assert edits == []


@pytest.mark.parametrize("system", [System.DAD6])
def test_dad6_rows_read_without_checkbox_or_repeated_name(client, party):
    sheet = party.pc.dad6
    skill = sheet.skills.create(name="Tracking", is_class_skill=True)
    client.force_login(party.player)
    html = sheet_part(client.get(party.pc.get_absolute_url()).content.decode())
    row = re.search(rf'<tr id="skill-{skill.pk}".*?</tr>', html, re.S).group(0)
    assert 'type="checkbox"' not in row and "Select an option" not in row
    assert row.count("Tracking") == 2  # the name and the Roll button's hidden "Roll Tracking"
    assert "Remove" not in row and "(from level)" in row


@pytest.mark.parametrize("system", [System.DAD6])
def test_dad6_edit_mode_labels_the_class_skill_checkbox(client, party):
    skill = party.pc.dad6.skills.create(name="Tracking", is_class_skill=True)
    client.force_login(party.player)
    html = client.get(party.pc.get_absolute_url(), {"edit": "skills"}).content.decode()
    row = re.search(rf'<tr id="skill-{skill.pk}".*?</tr>', html, re.S).group(0)
    box = re.search(r'<input type="checkbox"[^>]*id="([^"]+)"', row).group(1)
    label = re.search(rf'<label for="{box}"( class="[^"]*")?>([^<]+)</label>', row)
    assert label.group(2) == "Class skill" and label.group(1) is None  # shown, not hidden


# --- who may edit -----------------------------------------------------------------------------


@pytest.mark.parametrize("system", list(SECTIONS))
@pytest.mark.parametrize("actor", ["player", "gm"])
def test_owner_and_gm_open_every_section_in_edit_mode(client, party, system, actor):
    client.force_login(party.user(actor))
    for section in [*SECTIONS[system], "basics"]:
        response = client.get(party.pc.get_absolute_url(), {"edit": section})
        assert response.status_code == 200
        html = sheet_part(response.content.decode())
        assert f'<section id="{section}"' in html
        # One section edits at a time: no other Edit is offered while it is open.
        assert "?edit=" not in html
        assert f'href="{party.pc.get_absolute_url()}#{section}"' in html  # Cancel


@pytest.mark.parametrize(
    ("actor", "status"), [("other_player", 403), ("observer", 403), ("nonmember", 404)]
)
def test_others_can_neither_open_nor_save_a_section(client, party, actor, status):
    client.force_login(party.player)
    data = section_data(client, party.pc, "attributes")
    data["sheet-strength"] = "3"
    client.force_login(party.user(actor))
    assert client.get(party.pc.get_absolute_url(), {"edit": "skills"}).status_code == status
    assert client.post(save_url(party.pc, "attributes"), data).status_code == status
    assert client.post(save_url(party.pc, "attributes"), data, headers=HX).status_code == status
    party.pc.cogent.refresh_from_db()
    assert party.pc.cogent.strength == 0


def test_only_the_gm_edits_a_hidden_npc(client, party):
    spy = party.hidden_npc
    client.force_login(party.player)
    assert client.get(spy.get_absolute_url(), {"edit": "attributes"}).status_code == 404
    assert client.post(save_url(spy, "attributes"), {"sheet-strength": "4"}).status_code == 404
    client.force_login(party.gm)
    data = section_data(client, spy, "attributes")
    data["sheet-strength"] = "4"
    assert client.post(save_url(spy, "attributes"), data).status_code == 302
    spy.cogent.refresh_from_db()
    assert spy.cogent.strength == 4


def test_anonymous_is_sent_to_log_in(client, party):
    response = client.get(party.pc.get_absolute_url(), {"edit": "skills"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(save_url(party.pc, "skills"), {}).status_code == 302


def test_unknown_sections_are_404(client, party):
    client.force_login(party.player)
    assert client.get(party.pc.get_absolute_url(), {"edit": "class"}).status_code == 404
    assert client.post(save_url(party.pc, "nope"), {}).status_code == 404
    # A section with nothing to save (only rows to add and remove) has no Save either.
    assert client.post(save_url(party.pc, "injuries"), {}).status_code == 404


def test_the_gm_saves_a_players_section(client, party):
    client.force_login(party.gm)
    data = section_data(client, party.pc, "attributes")
    data["sheet-reflex"] = "2"
    assert client.post(save_url(party.pc, "attributes"), data).status_code == 302
    party.pc.cogent.refresh_from_db()
    assert party.pc.cogent.reflex == 2


# --- one Save per section ---------------------------------------------------------------------


def test_edit_mode_shows_the_ranges_up_front(client, party):
    client.force_login(party.player)
    html = client.get(party.pc.get_absolute_url(), {"edit": "attributes"}).content.decode()
    strength = re.search(r'<input[^>]*name="sheet-strength"[^>]*>', html).group(0)
    assert 'min="-1"' in strength and 'max="4"' in strength
    assert "−1 to 4" in html  # in the help beside the field
    assert "autofocus" in strength  # the section opens on its first field


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_a_player_sees_the_gms_maximum_as_the_resources_range(client, party):
    sheet = party.pc.cold_stars
    sheet.momentum_max = 4
    sheet.save()
    client.force_login(party.player)
    html = client.get(party.pc.get_absolute_url(), {"edit": "abilities"}).content.decode()
    momentum = re.search(r'<input[^>]*name="sheet-momentum"[^>]*>', html).group(0)
    assert 'min="0"' in momentum and 'max="4"' in momentum
    assert "0 to 4 (the GM sets the maximum)" in html
    assert 'name="sheet-momentum_max"' not in html
    client.force_login(party.gm)
    html = client.get(party.pc.get_absolute_url(), {"edit": "abilities"}).content.decode()
    assert re.search(r'<input[^>]*name="sheet-momentum_max"[^>]*max="20"', html)


def test_a_section_saves_every_row_in_one_post(client, party):
    skills = {s.name: s for s in party.pc.cogent.skills.all()}
    client.force_login(party.player)
    data = section_data(client, party.pc, "skills")
    assert len([k for k in data if k.endswith("-rating")]) == 15
    data[f"skill-{skills['Athletics'].pk}-rating"] = "3"
    data[f"skill-{skills['Stealth'].pk}-rating"] = "-1"
    response = client.post(save_url(party.pc, "skills"), data)
    assert response.status_code == 302
    assert response["Location"] == f"{party.pc.get_absolute_url()}#skills"
    ratings = dict(party.pc.cogent.skills.values_list("name", "rating"))
    assert (ratings["Athletics"], ratings["Stealth"], ratings["Swim"]) == (3, -1, 0)


def test_one_bad_field_saves_nothing_and_keeps_everything_typed(client, party):
    skills = {s.name: s for s in party.pc.cogent.skills.all()}
    client.force_login(party.player)
    data = section_data(client, party.pc, "skills")
    data[f"skill-{skills['Athletics'].pk}-rating"] = "3"
    data[f"skill-{skills['Stealth'].pk}-rating"] = "9"
    data[f"skill-{skills['Swim'].pk}-rating"] = "lots"
    for headers, status in (({}, 400), (HX, 200)):
        response = client.post(save_url(party.pc, "skills"), data, headers=headers)
        # htmx swaps only 2xx answers: the errors are part of the swapped sheet.
        assert response.status_code == status
        html = response.content.decode()
        assert "Nothing was saved" in html
        assert "Enter a whole number." in html
        assert "Enter a number from −1 to 4." in html  # the range, not Django's wording
        # Still in edit mode, with what was typed in every row, the good ones too.
        for name, typed in (("Athletics", "3"), ("Stealth", "9"), ("Swim", "lots")):
            tag = re.search(rf'<input[^>]*name="skill-{skills[name].pk}-rating"[^>]*>', html)
            assert f'value="{typed}"' in tag.group(0)
    assert set(party.pc.cogent.skills.values_list("rating", flat=True)) == {0}


def test_a_resource_spent_while_the_section_is_open_is_not_written_back(client, party):
    client.force_login(party.player)
    data = section_data(client, party.pc, "attributes")
    assert data["sheet-destiny_points"] == data["initial-sheet-destiny_points"] == "3"
    # A roll spends a destiny point while the form still shows 3.
    party.pc.cogent.destiny_points = 2
    party.pc.cogent.save()
    data["sheet-strength"] = "2"
    assert client.post(save_url(party.pc, "attributes"), data).status_code == 302
    party.pc.cogent.refresh_from_db()
    assert (party.pc.cogent.strength, party.pc.cogent.destiny_points) == (2, 2)
    # What the user did change is written, whatever it was meanwhile.
    data = section_data(client, party.pc, "attributes")
    data["sheet-destiny_points"] = "3"
    assert client.post(save_url(party.pc, "attributes"), data).status_code == 302
    party.pc.cogent.refresh_from_db()
    assert party.pc.cogent.destiny_points == 3


def test_htmx_save_returns_the_sheet_in_read_mode_with_the_new_values(client, party):
    athletics = party.pc.cogent.skills.get(name="Athletics")
    client.force_login(party.player)
    data = section_data(client, party.pc, "attributes")
    data["sheet-strength"] = "2"
    html = client.post(save_url(party.pc, "attributes"), data, headers=HX).content.decode()
    assert html.lstrip().startswith('<div id="sheet"') and "<html" not in html
    assert field_tags(html) == []
    assert "<dt>Strength</dt><dd>2</dd>" in html
    # Pools that hang on the attribute read again in the same swap (Athletics 0 folds away).
    assert re.search(rf'<tr id="skill-{athletics.pk}".*?>5d6<', html, re.S)
    assert 'hx-swap-oob="true">Saved attributes and resources.' in html
    # Focus goes back to the section's Edit.
    assert re.search(r'href="[^"]*\?edit=attributes#attributes"[^>]*autofocus', html)


def test_cancel_reads_the_sheet_again_unchanged(client, party):
    client.force_login(party.player)
    url = party.pc.get_absolute_url()
    html = client.get(url, {"edit": "attributes"}).content.decode()
    cancel = re.search(
        rf'<a class="button secondary" href="{url}#attributes"[^>]*>Cancel</a>', html
    )
    assert f'hx-get="{url}?focus=attributes"' in cancel.group(0)
    html = client.get(url, {"focus": "attributes"}, headers=HX).content.decode()
    assert field_tags(html) == []
    assert re.search(r'\?edit=attributes#attributes"[^>]*autofocus', html)
    party.pc.cogent.refresh_from_db()
    assert party.pc.cogent.strength == 0


@pytest.mark.parametrize("system", [System.COGENT])
def test_a_vocation_and_its_sub_skills_are_checked_on_their_new_ratings(client, party):
    vocation = party.pc.cogent.vocations.create(name="Pilot", attribute="reflex", rating=2)
    sub = vocation.subskills.create(
        slot=1, kind="vocational", name="Evasion", attribute="reflex", rating=2
    )
    client.force_login(party.player)
    data = section_data(client, party.pc, "vocations")
    # Raised together: the sub-skill is checked against the vocation's new rating.
    data |= {f"vocation-{vocation.pk}-rating": "3", f"subskill-{sub.pk}-rating": "3"}
    assert client.post(save_url(party.pc, "vocations"), data).status_code == 302
    # Lowered together too.
    data |= {f"vocation-{vocation.pk}-rating": "1", f"subskill-{sub.pk}-rating": "1"}
    assert client.post(save_url(party.pc, "vocations"), data).status_code == 302
    sub.refresh_from_db()
    assert sub.rating == 1
    # The vocation lowered below its sub-skill: the sub-skill's row says why, nothing is saved.
    data |= {f"vocation-{vocation.pk}-rating": "0"}
    response = client.post(save_url(party.pc, "vocations"), data)
    assert response.status_code == 400
    assert "A sub-skill cannot be above its vocation (0)." in response.content.decode()
    vocation.refresh_from_db()
    assert vocation.rating == 1


@pytest.mark.parametrize("system", [System.COGENT])
def test_an_other_weapon_asks_for_its_bonus_in_the_section(client, party):
    vocation = party.pc.cogent.vocations.create(name="Soldier", attribute="strength", rating=3)
    sword = vocation.subskills.create(slot=1, kind="combat", name="Medium", rating=2)
    client.force_login(party.player)
    data = section_data(client, party.pc, "vocations")
    assert f"subskill-{sword.pk}-weapon_bonus" not in data  # no box until "Other" is chosen
    data[f"subskill-{sword.pk}-weapon"] = "custom"
    response = client.post(save_url(party.pc, "vocations"), data)
    html = response.content.decode()
    # Without JavaScript the section comes back with the bonus box shown and asking for it.
    assert response.status_code == 400 and "Enter the weapon&#x27;s bonus dice." in html
    assert re.search(rf'<input type="number" name="subskill-{sword.pk}-weapon_bonus"', html)
    data[f"subskill-{sword.pk}-weapon_bonus"] = "2"
    assert client.post(save_url(party.pc, "vocations"), data).status_code == 302
    sword.refresh_from_db()
    assert (sword.weapon, sword.weapon_bonus) == ("custom", 2)


@pytest.mark.parametrize("system", [System.COGENT])
def test_vocations_are_renamed_together(client, party):
    a = party.pc.cogent.vocations.create(name="Pilot", attribute="reflex", rating=1)
    b = party.pc.cogent.vocations.create(name="Medic", attribute="intelligence", rating=1)
    client.force_login(party.player)
    data = section_data(client, party.pc, "vocations")
    data |= {f"vocation-{a.pk}-name": "Scout", f"vocation-{b.pk}-name": "scout"}
    response = client.post(save_url(party.pc, "vocations"), data)
    assert response.status_code == 400
    assert "Another vocation on this sheet has that name." in response.content.decode()
    data |= {f"vocation-{a.pk}-name": "Medic", f"vocation-{b.pk}-name": "Pilot"}
    assert client.post(save_url(party.pc, "vocations"), data).status_code == 302
    a.refresh_from_db()
    assert (a.name, a.attribute) == ("Medic", "reflex")


@pytest.mark.parametrize("system", [System.DAD6])
def test_dad6_skills_are_renamed_together(client, party):
    a = party.pc.dad6.skills.create(name="Climb", competence="trained")
    b = party.pc.dad6.skills.create(name="Swim", competence="expert")
    client.force_login(party.player)
    data = section_data(client, party.pc, "skills")
    data |= {f"skill-{a.pk}-name": "Sneak", f"skill-{b.pk}-name": "sneak"}
    response = client.post(save_url(party.pc, "skills"), data)
    assert response.status_code == 400
    assert "Another skill on this sheet has that name." in response.content.decode()
    data |= {f"skill-{a.pk}-name": "Sneak", f"skill-{b.pk}-name": "Climbing"}
    assert client.post(save_url(party.pc, "skills"), data).status_code == 302
    assert sorted(party.pc.dad6.skills.values_list("name", flat=True)) == ["Climbing", "Sneak"]
    # Two rows may swap their names in one Save.
    data |= {f"skill-{a.pk}-name": "Climbing", f"skill-{b.pk}-name": "Sneak"}
    assert client.post(save_url(party.pc, "skills"), data).status_code == 302
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.name, a.competence, b.name, b.competence) == (
        "Climbing",
        "trained",
        "Sneak",
        "expert",
    )


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_cold_stars_skills_section_trains_a_skill(client, party):
    acrobatics = party.pc.cold_stars.skills.get(name="Acrobatics")
    client.force_login(party.player)
    data = section_data(client, party.pc, "skills")
    data |= {f"skill-{acrobatics.pk}-trained": "on", f"skill-{acrobatics.pk}-rating": "2"}
    assert client.post(save_url(party.pc, "skills"), data).status_code == 302
    acrobatics.refresh_from_db()
    assert (acrobatics.trained, acrobatics.rating) == (True, 2)


@pytest.mark.parametrize("system", [System.COGENT])
def test_adding_and_removing_rows_stay_in_the_sections_edit_mode(client, party):
    client.force_login(party.player)
    url = party.pc.get_absolute_url()
    html = client.get(url, {"edit": "vocations"}).content.decode()
    assert "Add a vocation" in html
    assert "Add a vocation" not in client.get(url).content.decode()
    response = client.post(
        reverse("cogent_vocation_add", args=[party.pc.pk]),
        {
            "add-vocation-name": "Pilot",
            "add-vocation-attribute": "reflex",
            "add-vocation-rating": 2,
        },
    )
    assert response["Location"] == f"{url}?edit=vocations#vocations"
    vocation = party.pc.cogent.vocations.get()
    response = client.post(
        reverse("cogent_vocation_delete", args=[party.pc.pk, vocation.pk]), {"confirm": "yes"}
    )
    assert response["Location"] == f"{url}?edit=vocations#vocations"


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_adding_a_row_keeps_what_was_typed_in_the_section(client, party):
    sheet = party.pc.cold_stars
    acrobatics, piloting = sheet.skills.get(name="Acrobatics"), sheet.skills.get(name="Piloting")
    client.force_login(party.player)
    html = client.get(party.pc.get_absolute_url(), {"edit": "skills"}).content.decode()
    # The Add domain form sends the section's fields along (htmx).
    assert "hx-include=\"[form='skills-form']\"" in html
    data = section_data(client, party.pc, "skills")
    data |= {f"skill-{acrobatics.pk}-trained": "on", f"skill-{acrobatics.pk}-rating": "2"}
    data[f"domain-{piloting.pk}-name"] = "Small Craft"
    url = reverse("cold_stars_domain_add", args=[party.pc.pk, piloting.pk])
    html = client.post(url, data, headers=HX).content.decode()
    assert piloting.domains.get().name == "Small Craft"
    # Still in edit mode, Acrobatics as typed but not saved.
    row = re.search(rf'<tr id="skill-{acrobatics.pk}".*?</tr>', html, re.S).group(0)
    assert re.search(r'<input[^>]*name="skill-\d+-rating"[^>]*value="2"', row)
    assert re.search(r'<input type="checkbox"[^>]*checked', row)
    acrobatics.refresh_from_db()
    assert (acrobatics.trained, acrobatics.rating) == (False, 0)


# --- long sheets stay short -------------------------------------------------------------------


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_cold_stars_folds_its_untrained_skills(client, party):
    sheet = party.pc.cold_stars
    acrobatics = sheet.skills.get(name="Acrobatics")
    acrobatics.trained, acrobatics.rating = True, 2
    acrobatics.save()
    total = sheet.skills.count()
    client.force_login(party.player)
    html = sheet_part(client.get(party.pc.get_absolute_url()).content.decode())
    before, fold = html.split('<details class="fold">')
    assert f'id="skill-{acrobatics.pk}"' in before
    assert f"Show all {total} skills" in fold
    assert fold.count('data-kind="cold-stars-skill"') == total - 1
    assert 'href="#group-physical"' in before  # the trained skills' groups, to jump to
    # Edit mode lists every skill, unfolded.
    html = client.get(party.pc.get_absolute_url(), {"edit": "skills"}).content.decode()
    assert '<details class="fold">' not in html
    assert html.count('data-kind="cold-stars-skill"') == total


@pytest.mark.parametrize("system", [System.COGENT])
def test_cogent_folds_its_skills_rated_zero(client, party):
    athletics = party.pc.cogent.skills.get(name="Athletics")
    athletics.rating = 2
    athletics.save()
    client.force_login(party.player)
    html = sheet_part(client.get(party.pc.get_absolute_url()).content.decode())
    before, fold = html.split('<details class="fold">')
    assert f'id="skill-{athletics.pk}"' in before
    assert "Show all 15 skills" in fold and fold.count('data-kind="cogent-skill"') == 14


@pytest.mark.parametrize("system", [System.DAD6])
def test_dad6_folds_the_skills_it_is_merely_unfamiliar_with(client, party):
    sheet = party.pc.dad6
    kept = sheet.skills.create(name="Climb", competence="familiar")
    folded = sheet.skills.create(name="Juggle", competence="unfamiliar")
    client.force_login(party.player)
    html = sheet_part(client.get(party.pc.get_absolute_url()).content.decode())
    before, fold = html.split('<details class="fold">')
    assert f'id="skill-{kept.pk}"' in before and f'id="skill-{folded.pk}"' in fold
    assert "Show all 2 skills" in fold
