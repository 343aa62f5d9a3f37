"""Sheet-side ranges: the limits a stored sheet value must respect.

They live here once; models (validators and check constraints), forms and the JSON importer all
read them. Ranges stated by RULES.md are marked so; the rest are the project's own sheet decisions
(see docs/sheets.md) — the rules engine does not export sheet limits.
"""

from typing import Final

# Cogent Roleplay
COGENT_ATTRIBUTE_MIN: Final = -3  # Decision: 0 average, 2 world-class; negatives via disabilities.
COGENT_ATTRIBUTE_MAX: Final = 3  # Decision: one step of headroom above world-class.
COGENT_SKILL_MIN: Final = -1  # RULES.md §1
COGENT_SKILL_MAX: Final = 4  # RULES.md §1
COGENT_VOCATION_MIN: Final = 0  # RULES.md §1
COGENT_VOCATION_MAX: Final = 4  # RULES.md §1
COGENT_SUBSKILL_MIN: Final = 0  # RULES.md §1
COGENT_SUBSKILL_MAX: Final = 4  # RULES.md §1 (and never above its vocation)
COGENT_SUBSKILLS_PER_VOCATION: Final = 4  # RULES.md §1
COGENT_DESTINY_MIN: Final = 0  # RULES.md §1
COGENT_DESTINY_MAX: Final = 3  # RULES.md §1
COGENT_DESTINY_START: Final = 3  # RULES.md §1
COGENT_PENALTY_MAX: Final = 20  # Decision: dice removed by injuries / situations.

# DAD6
DAD6_LEVEL_MIN: Final = 1  # RULES.md §2
DAD6_LEVEL_MAX: Final = 99  # Decision: "1+" in the book; a cap keeps typos out.

# Cold Stars
COLD_STARS_ABILITY_MIN: Final = 1  # RULES.md §3
COLD_STARS_ABILITY_MAX: Final = 5  # RULES.md §3
COLD_STARS_SKILL_MIN: Final = 0  # RULES.md §3
COLD_STARS_SKILL_MAX: Final = 5  # RULES.md §3
COLD_STARS_DOMAIN_REQUIRED_FROM: Final = 3  # RULES.md §3
COLD_STARS_RESOURCE_MAX: Final = (
    99  # Decision: Momentum/Willpower never below 0; cap keeps typos out.
)

# Everything that names something
NAME_MAX_LENGTH: Final = 100
