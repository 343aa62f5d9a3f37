"""Campaigns, membership, invites and the character sheets of the three systems.

Every range on a sheet is a real column with a validator (forms show the message beside the field)
and a database check constraint (nothing else, admin or shell or import, can store it either).
Pool figures are never computed here by hand: `pool_*` methods call the rules engine.

One module per concern; every model is imported here so Django finds it.
"""

from sheets.models.base import (
    Refused,
    Role,
    RollableRow,
    Sheet,
    System,
    SystemSheet,
    system_choices,
)
from sheets.models.campaigns import (
    Campaign,
    CampaignQuerySet,
    Character,
    CharacterQuerySet,
    Invite,
    InviteError,
    Membership,
)
from sheets.models.cogent import (
    COGENT_COMBAT_SKILLS,
    COGENT_CORE_SKILLS,
    COGENT_CRAFT_SKILL,
    CUSTOM_WEAPON,
    CogentAttribute,
    CogentCombatSkill,
    CogentDisability,
    CogentInjury,
    CogentSheet,
    CogentSkill,
    CogentSubSkill,
    CogentVocation,
    SubSkillKind,
    cogent_combat_skills,
)
from sheets.models.cold_stars import (
    CampaignSkill,
    ColdStarsAbility,
    ColdStarsDomain,
    ColdStarsSheet,
    ColdStarsSkill,
)
from sheets.models.dad6 import (
    DAD6_COMPETENCE_CHOICES,
    DAD6_DEFAULT_BANE,
    Dad6Bane,
    Dad6Sheet,
    Dad6Skill,
)
from sheets.models.sessions import Session
from sheets.models.tokens import (
    MAX_ACTIVE_TOKENS,
    ApiToken,
    ApiTokenQuerySet,
    ApiUsage,
    Scope,
    TokenLimitReached,
)

__all__ = [
    "COGENT_COMBAT_SKILLS",
    "COGENT_CORE_SKILLS",
    "COGENT_CRAFT_SKILL",
    "CUSTOM_WEAPON",
    "DAD6_COMPETENCE_CHOICES",
    "DAD6_DEFAULT_BANE",
    "MAX_ACTIVE_TOKENS",
    "ApiToken",
    "ApiTokenQuerySet",
    "ApiUsage",
    "Campaign",
    "CampaignQuerySet",
    "CampaignSkill",
    "Character",
    "CharacterQuerySet",
    "CogentAttribute",
    "CogentCombatSkill",
    "CogentDisability",
    "CogentInjury",
    "CogentSheet",
    "CogentSkill",
    "CogentSubSkill",
    "CogentVocation",
    "ColdStarsAbility",
    "ColdStarsDomain",
    "ColdStarsSheet",
    "ColdStarsSkill",
    "Dad6Bane",
    "Dad6Sheet",
    "Dad6Skill",
    "Invite",
    "InviteError",
    "Membership",
    "Refused",
    "Role",
    "RollableRow",
    "Scope",
    "Session",
    "Sheet",
    "SubSkillKind",
    "System",
    "SystemSheet",
    "TokenLimitReached",
    "cogent_combat_skills",
    "system_choices",
]
