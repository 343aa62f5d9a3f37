"""factory-boy factories for every model. Characters get their system's blank sheet, as in the app."""

import factory
from django.contrib.auth import get_user_model

from log.models import OUTCOME_LABELS, RollEntry
from rolls.models import Webhook, WebhookDelivery, WebhookFormat
from sheets.models import (
    Campaign,
    CampaignSkill,
    Character,
    CogentSheet,
    CogentSkill,
    CogentSubSkill,
    CogentVocation,
    ColdStarsDomain,
    ColdStarsSheet,
    ColdStarsSkill,
    Dad6Sheet,
    Dad6Skill,
    Invite,
    Membership,
    Role,
    System,
)

PASSWORD = "pw"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class CampaignFactory(factory.django.DjangoModelFactory):
    """A campaign with its GM (`gm=` to choose one)."""

    class Meta:
        model = Campaign
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Campaign {n}")
    description = "A test campaign."
    system = System.COGENT

    @factory.post_generation
    def gm(obj, create, extracted, **kwargs):
        if create:
            Membership.objects.create(campaign=obj, user=extracted or UserFactory(), role=Role.GM)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.PLAYER


class InviteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invite

    campaign = factory.SubFactory(CampaignFactory)
    role = Role.PLAYER
    created_by = factory.LazyAttribute(lambda i: i.campaign.memberships.get(role=Role.GM).user)


class CharacterFactory(factory.django.DjangoModelFactory):
    """A character with the blank sheet of its campaign's system."""

    class Meta:
        model = Character
        skip_postgeneration_save = True

    campaign = factory.SubFactory(CampaignFactory)
    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Hero {n}")
    notes = ""

    @factory.post_generation
    def membership(obj, create, extracted, **kwargs):
        # A character's owner is a member of its campaign (a player unless already something).
        if create:
            Membership.objects.get_or_create(
                campaign=obj.campaign, user=obj.owner, defaults={"role": Role.PLAYER}
            )

    @factory.post_generation
    def sheet(obj, create, extracted, **kwargs):
        # `sheet=False` leaves the character without a sheet (for the sheet factories below).
        if create and extracted is not False:
            obj.create_sheet()


def _bare_character(system: str) -> factory.SubFactory:
    return factory.SubFactory(CharacterFactory, campaign__system=system, sheet=False)


# The sheet factories build the one-to-one sheet row alone, without the default skill rows.
class CogentSheetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CogentSheet

    character = _bare_character(System.COGENT)


class CogentSkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CogentSkill

    sheet = factory.LazyFunction(lambda: CharacterFactory(campaign__system=System.COGENT).cogent)
    name = factory.Sequence(lambda n: f"Extra skill {n}")
    attribute = "strength"
    rating = 0


class CogentVocationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CogentVocation

    sheet = factory.LazyFunction(lambda: CharacterFactory(campaign__system=System.COGENT).cogent)
    name = factory.Sequence(lambda n: f"Vocation {n}")
    attribute = "intelligence"
    rating = 2


class CogentSubSkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CogentSubSkill

    vocation = factory.SubFactory(CogentVocationFactory)
    slot = factory.LazyAttribute(lambda s: s.vocation.free_slot())
    kind = "vocational"
    name = factory.Sequence(lambda n: f"Sub-skill {n}")
    attribute = "reflex"
    rating = 1


class Dad6SheetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Dad6Sheet

    character = _bare_character(System.DAD6)
    class_name = "Ranger"
    level = 1


class Dad6SkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Dad6Skill

    sheet = factory.LazyFunction(lambda: CharacterFactory(campaign__system=System.DAD6).dad6)
    name = factory.Sequence(lambda n: f"Skill {n}")
    is_class_skill = False
    competence = "familiar"


class ColdStarsSheetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ColdStarsSheet

    character = _bare_character(System.COLD_STARS)


class CampaignSkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CampaignSkill

    campaign = factory.SubFactory(CampaignFactory, system=System.COLD_STARS)
    name = factory.Sequence(lambda n: f"Custom skill {n}")
    group = "Campaign"
    ability = "will"
    is_domain = False


class ColdStarsSkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ColdStarsSkill

    sheet = factory.LazyFunction(
        lambda: CharacterFactory(campaign__system=System.COLD_STARS).cold_stars
    )
    campaign_skill = factory.LazyAttribute(
        lambda s: CampaignSkillFactory(campaign=s.sheet.character.campaign)
    )
    name = factory.LazyAttribute(lambda s: s.campaign_skill.name)
    group = "Campaign"
    ability = "will"
    trained = True
    rating = 1


class ColdStarsDomainFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ColdStarsDomain

    skill = factory.LazyFunction(
        lambda: (
            CharacterFactory(campaign__system=System.COLD_STARS)
            .cold_stars.skills.filter(is_domain=True)
            .first()
        )
    )
    name = factory.Sequence(lambda n: f"Domain {n}")


class RollEntryFactory(factory.django.DjangoModelFactory):
    """A log entry appended with ``RollEntry.objects.append`` (so seq and hashes chain as in the app).
    Defaults: a public Cogent-style roll of two d6 by the character's owner."""

    class Meta:
        model = RollEntry

    character = factory.SubFactory(CharacterFactory)
    user = factory.LazyAttribute(lambda e: e.character.owner)
    character_name = factory.LazyAttribute(lambda e: e.character.name)
    username = factory.LazyAttribute(lambda e: e.user.username)
    system = factory.LazyAttribute(lambda e: e.character.campaign.system)
    kind = "roll"
    label = "Athletics"
    options = factory.LazyFunction(dict)
    pool = factory.LazyFunction(lambda: {"dice": 2})
    breakdown = "2 base = 2d6 vs CL 1 (Common)"
    faces = factory.LazyFunction(
        lambda: [
            {"kind": "d6", "face": 5, "reading": "win"},
            {"kind": "d6", "face": 2, "reading": "loss"},
        ]
    )
    outcome = "success"
    outcome_label = factory.LazyAttribute(lambda e: OUTCOME_LABELS[e.outcome])
    detail = ""
    result = factory.LazyFunction(dict)
    odds = "3/4"
    odds_display = "75%"
    odds_table = factory.LazyFunction(
        lambda: {"success": "3/4", "failure": "2/9", "critical_failure": "1/36"}
    )
    resource_changes = factory.LazyFunction(dict)

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        campaign = kwargs.pop("campaign", None) or kwargs["character"].campaign
        return model_class.objects.append(campaign=campaign, **kwargs)


# --- the GM table ----------------------------------------------------------------------------


class RollCallFactory(factory.django.DjangoModelFactory):
    """A call for a roll (`targets=[characters]` to aim it)."""

    class Meta:
        model = "rolls.RollCall"
        skip_postgeneration_save = True

    campaign = factory.SubFactory(CampaignFactory)
    created_by = factory.LazyAttribute(lambda c: c.campaign.memberships.get(role=Role.GM).user)
    skill = "Athletics"
    difficulty = 2

    @factory.post_generation
    def targets(obj, create, extracted, **kwargs):
        if create:
            for character in extracted or ():
                obj.targets.create(character=character)


class RollCallTargetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "rolls.RollCallTarget"

    call = factory.SubFactory(RollCallFactory)
    character = factory.SubFactory(
        CharacterFactory, campaign=factory.SelfAttribute("..call.campaign")
    )


class ContestFactory(factory.django.DjangoModelFactory):
    """A Cogent conflict between two new characters of one campaign (override what you need)."""

    class Meta:
        model = "rolls.Contest"

    campaign = factory.SubFactory(CampaignFactory)
    created_by = factory.LazyAttribute(lambda c: c.campaign.memberships.get(role=Role.GM).user)
    kind = "cogent_conflict"
    character_a = factory.SubFactory(CharacterFactory, campaign=factory.SelfAttribute("..campaign"))
    character_b = factory.SubFactory(CharacterFactory, campaign=factory.SelfAttribute("..campaign"))
    name_a = factory.LazyAttribute(lambda c: c.character_a.name)
    name_b = factory.LazyAttribute(lambda c: c.character_b.name)
    skill_a = "Athletics"
    skill_b = "Athletics"


# --- webhooks --------------------------------------------------------------------------------


class WebhookFactory(factory.django.DjangoModelFactory):
    """A signed-JSON webhook, added as the GM's form adds one (the campaign's has_webhooks flag
    follows). Tests that post to a local receiver set WEBHOOKS_ALLOW_PRIVATE."""

    class Meta:
        model = Webhook

    campaign = factory.SubFactory(CampaignFactory)
    url = "https://hooks.example/poolside"
    format = WebhookFormat.JSON

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        webhook = model_class(*args, **kwargs)
        webhook.add()
        return webhook


class WebhookDeliveryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WebhookDelivery

    webhook = factory.SubFactory(WebhookFactory)
    entry = None


# --- Discord (discord) ------------------------------------------------------------------


class DiscordLinkFactory(factory.django.DjangoModelFactory):
    """A Poolside user linked to a Discord user (ids are Discord's "snowflakes": digits)."""

    class Meta:
        model = "discord.DiscordLink"

    user = factory.SubFactory(UserFactory)
    discord_user = factory.Sequence(lambda n: str(900000000000000000 + n))
    discord_name = factory.LazyAttribute(lambda link: f"{link.user.username}-on-discord")


class ChannelBindingFactory(factory.django.DjangoModelFactory):
    """A Discord channel that plays a campaign."""

    class Meta:
        model = "discord.ChannelBinding"

    channel = factory.Sequence(lambda n: str(800000000000000000 + n))
    guild = "700000000000000001"
    campaign = factory.SubFactory(CampaignFactory)
