"""Forms for accounts, campaigns, invites and every sheet part, one module per concern and per
system (as `sheets.models` is). Every form is importable from here."""

from sheets.forms.accounts import (
    ApiTokenForm,
    PasswordChangeWithTokensForm,
    SignupForm,
)
from sheets.forms.campaigns import (
    EXPIRY_CHOICES,
    CampaignForm,
    CampaignSkillForm,
    InviteForm,
)
from sheets.forms.characters import (
    CharacterBasicsForm,
    CharacterImportForm,
    FiguresSection,
    SectionForm,
    SheetRowForm,
    UniqueNamesSection,
    show_ranges,
)
from sheets.forms.cogent import (
    CogentCombatSkillForm,
    CogentDisabilityForm,
    CogentInjuryForm,
    CogentSheetForm,
    CogentSkillForm,
    CogentSubSkillForm,
    CogentSubSkillRatingForm,
    CogentVocationForm,
)
from sheets.forms.cold_stars import (
    COLD_STARS_ABILITY_FIELDS,
    ColdStarsDomainForm,
    ColdStarsSheetForm,
    ColdStarsSkillForm,
)
from sheets.forms.dad6 import (
    Dad6BaneForm,
    Dad6ForwardBoonsForm,
    Dad6SheetForm,
    Dad6SkillForm,
)
from sheets.forms.portraits import PortraitForm

__all__ = [
    "COLD_STARS_ABILITY_FIELDS",
    "EXPIRY_CHOICES",
    "ApiTokenForm",
    "CampaignForm",
    "CampaignSkillForm",
    "CharacterBasicsForm",
    "CharacterImportForm",
    "CogentCombatSkillForm",
    "CogentDisabilityForm",
    "CogentInjuryForm",
    "CogentSheetForm",
    "CogentSkillForm",
    "CogentSubSkillForm",
    "CogentSubSkillRatingForm",
    "CogentVocationForm",
    "ColdStarsDomainForm",
    "ColdStarsSheetForm",
    "ColdStarsSkillForm",
    "Dad6BaneForm",
    "Dad6ForwardBoonsForm",
    "Dad6SheetForm",
    "Dad6SkillForm",
    "FiguresSection",
    "InviteForm",
    "PasswordChangeWithTokensForm",
    "PortraitForm",
    "SectionForm",
    "SheetRowForm",
    "SignupForm",
    "UniqueNamesSection",
    "show_ranges",
]
