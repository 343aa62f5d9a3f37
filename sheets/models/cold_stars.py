"""The Cold Stars sheet: abilities, resources, the skill catalog and the campaign's own skills,
domains."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from rules import cold_stars
from sheets import ranges
from sheets.catalog import cold_stars_catalog, cold_stars_catalog_by_key
from sheets.models.base import (
    Refused,
    RollableRow,
    SystemSheet,
    between_constraint,
    in_constraint,
    range_validators,
)
from sheets.models.campaigns import Campaign, Character

# ---------------------------------------------------------------------------------------------
# Cold Stars
# ---------------------------------------------------------------------------------------------


class ColdStarsAbility(models.TextChoices):
    STRENGTH = "strength", "Strength"
    AGILITY = "agility", "Agility"
    INTELLECT = "intellect", "Intellect"
    PRESENCE = "presence", "Presence"
    PERCEPTION = "perception", "Perception"
    WILL = "will", "Will"


def _ability_field() -> models.SmallIntegerField:
    return models.SmallIntegerField(
        default=ranges.COLD_STARS_ABILITY_MIN,
        validators=range_validators(ranges.COLD_STARS_ABILITY_MIN, ranges.COLD_STARS_ABILITY_MAX),
    )


def _resource_field(verbose_name: str) -> models.SmallIntegerField:
    return models.SmallIntegerField(
        verbose_name, default=0, validators=range_validators(0, ranges.COLD_STARS_RESOURCE_MAX)
    )


class ColdStarsSheet(SystemSheet):
    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, related_name="cold_stars", primary_key=True
    )
    strength = _ability_field()
    agility = _ability_field()
    intellect = _ability_field()
    presence = _ability_field()
    perception = _ability_field()
    will = _ability_field()
    momentum = _resource_field("Momentum")
    momentum_max = _resource_field("Momentum maximum")
    willpower = _resource_field("Willpower")
    willpower_max = _resource_field("Willpower maximum")

    class Meta:
        constraints = (
            [
                between_constraint(
                    ability,
                    ranges.COLD_STARS_ABILITY_MIN,
                    ranges.COLD_STARS_ABILITY_MAX,
                    f"cold_stars_{ability}_range",
                )
                for ability in ColdStarsAbility.values
            ]
            + [
                between_constraint(
                    field, 0, ranges.COLD_STARS_RESOURCE_MAX, f"cold_stars_{field}_range"
                )
                for field in ("momentum", "momentum_max", "willpower", "willpower_max")
            ]
            + [
                models.CheckConstraint(
                    condition=Q(momentum__lte=F("momentum_max")), name="cold_stars_momentum_lte_max"
                ),
                models.CheckConstraint(
                    condition=Q(willpower__lte=F("willpower_max")),
                    name="cold_stars_willpower_lte_max",
                ),
            ]
        )

    def __str__(self) -> str:
        return f"Cold Stars sheet of {self.character}"

    def clean(self) -> None:
        errors = {}
        for field, label in (("momentum", "Momentum"), ("willpower", "Willpower")):
            current, maximum = getattr(self, field), getattr(self, f"{field}_max")
            if current is not None and maximum is not None and current > maximum:
                errors[field] = f"{label} cannot exceed its maximum ({maximum})."
        if errors:
            raise ValidationError(errors)

    def apply(self, change: cold_stars.ResourceChange) -> dict[str, int]:
        """Spend or gain Momentum and Willpower on this *locked* sheet; refuse what isn't there.
        A gain stops at the GM's maximum (the sheet never holds more). The changes made."""
        if self.momentum < -change.momentum:
            raise Refused(f"That needs {-change.momentum} Momentum; you have {self.momentum}.")
        if self.willpower < -change.willpower:
            raise Refused(f"That needs {-change.willpower} Willpower; you have {self.willpower}.")
        momentum = min(self.momentum_max, self.momentum + change.momentum)
        willpower = self.willpower + change.willpower
        changes = {"momentum": momentum - self.momentum, "willpower": willpower - self.willpower}
        if any(changes.values()):
            self.momentum, self.willpower = momentum, willpower
            self.save(update_fields=["momentum", "willpower"])
        return changes

    @classmethod
    def create_for(cls, character: Character) -> ColdStarsSheet:
        sheet = cls.objects.create(character=character)
        sheet.ensure_skills()
        return sheet

    def ensure_skills(self) -> None:
        """Give the sheet a row for every catalog and campaign skill it does not have yet."""
        have = set(self.skills.values_list("name", flat=True))
        rows = [
            ColdStarsSkill(
                sheet=self,
                catalog_key=skill.key,
                name=skill.name,
                group=skill.group,
                ability=skill.ability,
                is_domain=skill.domain,
                position=i,
            )
            for i, skill in enumerate(cold_stars_catalog())
            if skill.name not in have
        ]
        campaign_skills = CampaignSkill.objects.filter(campaign_id=self.character.campaign_id)
        rows += [
            ColdStarsSkill(
                sheet=self,
                campaign_skill=skill,
                name=skill.name,
                group=skill.group,
                ability=skill.ability,
                is_domain=skill.is_domain,
                position=1000 + skill.pk,
            )
            for skill in campaign_skills
            if skill.name not in have
        ]
        ColdStarsSkill.objects.bulk_create(rows)

    def ability_value(self, ability: str) -> int:
        return getattr(self, ColdStarsAbility(ability).value)


class CampaignSkill(models.Model):
    """A skill the GM adds to a Cold Stars campaign beside the default catalog."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="custom_skills")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    group = models.CharField(max_length=ranges.NAME_MAX_LENGTH, default="Campaign")
    ability = models.CharField("suggested Ability", max_length=16, choices=ColdStarsAbility.choices)
    is_domain = models.BooleanField("domain skill", default=False)
    example_domains = models.CharField(
        max_length=300, blank=True, help_text="Comma-separated examples shown to players."
    )

    class Meta:
        ordering = ["group", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="campaign_skill_unique_name"),
            models.CheckConstraint(condition=~Q(name=""), name="campaign_skill_name_not_empty"),
            in_constraint("ability", ColdStarsAbility.values, "campaign_skill_ability_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def examples(self) -> tuple[str, ...]:
        """The example domains the GM typed, one by one, as the catalog's skills hold theirs."""
        return tuple(part.strip() for part in self.example_domains.split(",") if part.strip())

    def add_to_sheets(self) -> None:
        for sheet in ColdStarsSheet.objects.filter(character__campaign_id=self.campaign_id):
            sheet.ensure_skills()


class ColdStarsSkill(RollableRow, models.Model):
    sheet = models.ForeignKey(ColdStarsSheet, on_delete=models.CASCADE, related_name="skills")
    # Exactly one source: a catalog key, or a campaign's custom skill.
    catalog_key = models.CharField(max_length=64, blank=True)
    campaign_skill = models.ForeignKey(
        CampaignSkill, on_delete=models.CASCADE, null=True, blank=True, related_name="sheet_skills"
    )
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    group = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    ability = models.CharField("suggested Ability", max_length=16, choices=ColdStarsAbility.choices)
    is_domain = models.BooleanField("domain skill", default=False)
    trained = models.BooleanField(default=False)
    rating = models.SmallIntegerField(
        default=0,
        validators=range_validators(ranges.COLD_STARS_SKILL_MIN, ranges.COLD_STARS_SKILL_MAX),
    )
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "name"], name="cold_stars_skill_unique_name"),
            between_constraint(
                "rating",
                ranges.COLD_STARS_SKILL_MIN,
                ranges.COLD_STARS_SKILL_MAX,
                "cold_stars_skill_range",
            ),
            # Untrained skills carry no rating (RULES.md §3: untrained, or trained 0-5).
            models.CheckConstraint(
                condition=Q(trained=True) | Q(rating=0), name="cold_stars_untrained_rating_0"
            ),
            models.CheckConstraint(
                condition=(Q(catalog_key__gt="") & Q(campaign_skill__isnull=True))
                | (Q(catalog_key="") & Q(campaign_skill__isnull=False)),
                name="cold_stars_skill_one_source",
            ),
            in_constraint("ability", ColdStarsAbility.values, "cold_stars_skill_ability_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def needs_domain(self) -> bool:
        return (
            self.is_domain
            and self.trained
            and self.rating >= ranges.COLD_STARS_DOMAIN_REQUIRED_FROM
        )

    @property
    def pool(self) -> cold_stars.Pool:
        # The suggested Ability is the roll's default (the GM may pick another when rolling).
        return cold_stars.build_pool(
            ability=self.sheet.ability_value(self.ability),
            skill=self.rating,
            risk=0,
            trained=self.trained,
            domain_skill=self.is_domain,
            in_domain=True,
        )

    @property
    def example_domains(self) -> tuple[str, ...]:
        if self.campaign_skill is not None:
            return self.campaign_skill.examples
        entry = cold_stars_catalog_by_key().get(self.catalog_key)
        return entry.example_domains if entry else ()


class ColdStarsDomain(models.Model):
    skill = models.ForeignKey(ColdStarsSkill, on_delete=models.CASCADE, related_name="domains")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["skill", "name"], name="cold_stars_domain_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="cold_stars_domain_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def deletion_problem(self) -> str:
        """Why this domain can't go now ("" when it can): a domain skill rated 3 or more keeps at
        least one domain (docs/rules.md, Cold Stars)."""
        skill = self.skill
        if skill.needs_domain and skill.domains.count() == 1:
            return (
                f"{skill.name} is rated {skill.rating}, so it needs at least one domain: "
                "add another domain or lower the rating first."
            )
        return ""
