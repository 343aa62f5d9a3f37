"""Sheet-side ranges: the limits a stored sheet value must respect.

Models (validators and check constraints), forms and the JSON importer read them from here, and
``span`` words a range the same on every page that shows one. Where the rules engine exports a
limit, it is taken from the engine so the two can never disagree; the few limits only a sheet
needs (penalty dice, resource maximums) are the project's own decisions, documented in
docs/sheets.md.
"""

from typing import Final

from django.conf import settings

from rules import cogent, cold_stars, dad6

# Cogent Roleplay (engine)
COGENT_ATTRIBUTE_MIN: Final = cogent.ATTRIBUTE_MIN
COGENT_ATTRIBUTE_MAX: Final = cogent.ATTRIBUTE_MAX
COGENT_SKILL_MIN: Final = cogent.SKILL_MIN
COGENT_SKILL_MAX: Final = cogent.SKILL_MAX
COGENT_VOCATION_MIN: Final = cogent.VOCATION_MIN
COGENT_VOCATION_MAX: Final = cogent.VOCATION_MAX
# Sub-skills share the vocation range (RULES.md §1: 0..4, never above their vocation).
COGENT_SUBSKILL_MIN: Final = cogent.VOCATION_MIN
COGENT_SUBSKILL_MAX: Final = cogent.VOCATION_MAX
COGENT_SUBSKILLS_PER_VOCATION: Final = cogent.MAX_SUB_SKILLS
COGENT_DESTINY_MIN: Final = 0
COGENT_DESTINY_MAX: Final = cogent.DESTINY_MAX
COGENT_DESTINY_START: Final = cogent.DESTINY_MAX  # RULES.md §1: destiny points start at 3
# Decision (sheet): dice removed by the situation or a disabling characteristic, each 0..20.
COGENT_PENALTY_MAX: Final = 20
# Decision (sheet): a weapon bonus outside the Book's melee table (ranged and the like), −10..10;
# the engine accepts any integer.
COGENT_WEAPON_BONUS_MIN: Final = -10
COGENT_WEAPON_BONUS_MAX: Final = 10

# DAD6 (engine)
DAD6_LEVEL_MIN: Final = dad6.LEVEL_MIN
DAD6_LEVEL_MAX: Final = dad6.LEVEL_MAX
DAD6_FORWARD_BOONS_MAX: Final = dad6.BONUS_BOONS_MAX

# Cold Stars (engine)
COLD_STARS_ABILITY_MIN: Final = cold_stars.ABILITY_MIN
COLD_STARS_ABILITY_MAX: Final = cold_stars.ABILITY_MAX
COLD_STARS_SKILL_MIN: Final = cold_stars.SKILL_MIN
COLD_STARS_SKILL_MAX: Final = cold_stars.SKILL_MAX
COLD_STARS_DOMAIN_REQUIRED_FROM: Final = cold_stars.DOMAIN_FROM_RANK
# Decision (sheet): Momentum and Willpower never below 0 (RULES.md §3); 20 keeps typos out.
COLD_STARS_RESOURCE_MAX: Final = 20
# Decision: the maxima a Cold Stars character imported without them gets, until the GM changes
# the campaign's defaults (a first Press on a maximum of 0 would gain nothing).
COLD_STARS_MOMENTUM_MAX_DEFAULT: Final = 5
COLD_STARS_WILLPOWER_MAX_DEFAULT: Final = 3


# Everything that names something
NAME_MAX_LENGTH: Final = 100

# Character import (docs/character-json.md, "Limits"): the most UTF-8 bytes a pasted or uploaded
# export may have. A setting, because the 413 page (web/errors.py) names it too.
IMPORT_MAX_BYTES: Final[int] = settings.IMPORT_MAX_BYTES


def span(low: int, high: int) -> str:
    """A range as the sheet and the creation page print it, with a real minus sign: "−1 to 4"."""
    return f"{low} to {high}".replace("-", "\u2212")
