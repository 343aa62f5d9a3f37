"""Every out-of-range input raises ValueError with a message a GM can act on."""

import pytest

from rules import cogent, cold_stars, dad6
from rules.cold_stars import Faces, Pool

CASES = {
    # --- Cogent ---
    "cogent skill too high": (
        lambda: cogent.pool_size(skill=5, attribute=0),
        "Skill must be from -1 to 4",
    ),
    "cogent skill too low": (
        lambda: cogent.pool_size(skill=-2, attribute=0),
        "Skill must be from -1 to 4",
    ),
    "cogent attribute": (
        lambda: cogent.pool_size(skill=0, attribute=5),
        "Attribute must be from -1 to 4",
    ),
    "cogent skill not a number": (
        lambda: cogent.pool_size(skill="2", attribute=0),
        "Skill must be a whole number",
    ),
    "cogent skill bool": (
        lambda: cogent.pool_size(skill=True, attribute=0),
        "Skill must be a whole number",
    ),
    "cogent bonus modifier": (
        lambda: cogent.pool_size(skill=0, attribute=0, modifier=1),
        "Penalty modifier",
    ),
    "cogent combat skill": (
        lambda: cogent.combat_pool_size(combat_skill=-1, attributes=[0, 0, 0]),
        "Combat skill must be from 0 to 4",
    ),
    "cogent attributes not a list": (
        lambda: cogent.combat_pool_size(combat_skill=1, attributes=3),
        "Attributes must be a list",
    ),
    "cogent four attributes": (
        lambda: cogent.combat_pool_size(combat_skill=1, attributes=[0, 0, 0, 0]),
        "3 attributes, not 4",
    ),
    "cogent combat attribute": (
        lambda: cogent.combat_pool_size(combat_skill=1, attributes=[0, 9, 0]),
        "Attribute must be from -1 to 4",
    ),
    "cogent weapon bonus": (
        lambda: cogent.combat_pool_size(combat_skill=1, attributes=[0], weapon_bonus=1000),
        "Weapon bonus",
    ),
    "cogent CL zero": (
        lambda: cogent.auto_success(8, challenge_level=0),
        "Challenge Level must be from 1 to 8",
    ),
    "cogent CL nine": (
        lambda: cogent.odds(3, challenge_level=9),
        "Challenge Level must be from 1 to 8",
    ),
    "cogent negative pool": (lambda: cogent.odds(-1), "Dice pool must be from 0 to 100"),
    "cogent huge pool": (lambda: cogent.roll(101, None), "Dice pool must be from 0 to 100"),
    "cogent conflict pool": (
        lambda: cogent.conflict_odds(1, 101),
        "Dice pool must be from 0 to 100",
    ),
    "cogent duress flag": (
        lambda: cogent.auto_success(8, challenge_level=1, duress="yes"),
        "Duress must be true or false",
    ),
    "cogent face seven": (lambda: cogent.resolve((1, 7)), "A d6 die shows 1 to 6; 7 is not a face"),
    "cogent face zero": (lambda: cogent.resolve((0,)), "0 is not a face"),
    "cogent faces string": (lambda: cogent.resolve("123"), "Faces must be a list of numbers"),
    "cogent faces not iterable": (lambda: cogent.resolve(5), "Faces must be a list of numbers"),
    "cogent too many faces": (lambda: cogent.resolve((4,) * 101), "at most 100 dice"),
    "cogent too much destiny": (
        lambda: cogent.resolve((4,), destiny_before=True, destiny_after=3),
        "at most 3 destiny points",
    ),
    "cogent negative destiny": (
        lambda: cogent.odds(3, destiny_after=-1),
        "Destiny points spent after the roll",
    ),
    "cogent destiny before not bool": (
        lambda: cogent.resolve((4,), destiny_before=1),
        "Destiny before the roll",
    ),
    "cogent assist out of range": (
        lambda: cogent.resolve((4,), assist=9),
        "Assist must be from -8 to 8",
    ),
    "cogent assist CL below 3": (
        lambda: cogent.assist((4, 4), challenge_level=2),
        "Challenge Level must be from 3 to 8",
    ),
    "cogent conflict face": (lambda: cogent.conflict((4,), (8,)), "8 is not a face"),
    "cogent conflict destiny": (
        lambda: cogent.conflict((4,), (4,), destiny_before_b=None),
        "Side B's destiny",
    ),
    # --- DAD6 ---
    "dad6 level zero": (lambda: dad6.class_skill_competence(0), "Class level must be from 1 to 20"),
    "dad6 level too high": (
        lambda: dad6.pool_size(level=21, competence="familiar"),
        "Class level must be from 1 to 20",
    ),
    "dad6 competence": (
        lambda: dad6.pool_size(level=1, competence="godlike"),
        "Competence must be one of",
    ),
    "dad6 negative extra dice": (
        lambda: dad6.pool_size(level=1, competence="familiar", extra_dice=-1),
        "Extra dice must be from 0 to 30",
    ),
    "dad6 task": (
        lambda: dad6.resolve((6,), competence="trained", task="heroic"),
        "Task must be one of",
    ),
    "dad6 difficulty zero": (
        lambda: dad6.resolve((6,), competence="trained", difficulty=0),
        "Difficulty must be from 1 to 10",
    ),
    "dad6 difficulty eleven": (
        lambda: dad6.odds(3, competence="trained", difficulty=11),
        "Difficulty must be from 1 to 10",
    ),
    "dad6 negative trade": (
        lambda: dad6.resolve((6,), competence="trained", traded_boons=-1),
        "Traded boons",
    ),
    "dad6 trade too many": (
        lambda: dad6.odds(15, competence="trained", traded_boons=2),
        "can trade at most 1, not 2",
    ),
    "dad6 roll trade too many": (lambda: dad6.roll(7, None, traded_boons=1), "can trade at most 0"),
    "dad6 pool too big": (
        lambda: dad6.odds(51, competence="trained"),
        "Dice pool must be from 0 to 50",
    ),
    "dad6 face": (lambda: dad6.resolve((6, 9), competence="trained"), "9 is not a face"),
    "dad6 too many faces": (
        lambda: dad6.resolve((1,) * 51, competence="trained"),
        "at most 50 dice",
    ),
    "dad6 severity": (lambda: dad6.severity(0), "Margin of failure must be at least 1"),
    # --- Cold Stars ---
    "cs ability zero": (
        lambda: cold_stars.build_pool(ability=0, skill=1, risk=0),
        "Ability must be from 1 to 5",
    ),
    "cs ability six": (
        lambda: cold_stars.build_pool(ability=6, skill=1, risk=0),
        "Ability must be from 1 to 5",
    ),
    "cs skill": (
        lambda: cold_stars.build_pool(ability=1, skill=6, risk=0),
        "Skill rating must be from 0 to 5",
    ),
    "cs risk": (
        lambda: cold_stars.build_pool(ability=1, skill=1, risk=7),
        "Risk must be from 0 to 6",
    ),
    "cs untrained rating": (
        lambda: cold_stars.build_pool(ability=1, skill=2, risk=0, trained=False),
        "An untrained skill has no rating",
    ),
    "cs contest untrained rating": (
        lambda: cold_stars.contest_pool(ability=1, skill=2, trained=False),
        "An untrained skill has no rating",
    ),
    "cs trained flag": (
        lambda: cold_stars.build_pool(ability=1, skill=1, risk=0, trained=None),
        "Trained must be true or false",
    ),
    "cs domain flag": (
        lambda: cold_stars.build_pool(ability=1, skill=1, risk=0, domain_skill=1),
        "Domain skill",
    ),
    "cs in-domain flag": (
        lambda: cold_stars.build_pool(ability=1, skill=1, risk=0, in_domain="no"),
        "In domain",
    ),
    "cs pool both": (lambda: Pool(1, 1, 1), "never holds Skill and Risk"),
    "cs pool empty": (lambda: Pool(0, 0, 0), "at least one die"),
    "cs pool negative": (lambda: Pool(-1, 1, 0), "Ability dice must be from 0 to 5"),
    "cs pool too many skill": (lambda: Pool(1, 11, 0), "Skill dice must be from 0 to 10"),
    "cs pool too much risk": (lambda: Pool(1, 0, 9), "Risk dice must be from 0 to 8"),
    "cs modify not a pool": (
        lambda: cold_stars.modify((1, 1, 0), press=True),
        "modify takes a Pool",
    ),
    "cs two modifications": (
        lambda: cold_stars.modify(Pool(1, 0, 1), press=True, brace=True),
        "Only one pre-roll",
    ),
    "cs brace without risk": (
        lambda: cold_stars.modify(Pool(1, 0, 0), brace=True),
        "Brace removes a Risk die",
    ),
    "cs willpower with risk": (
        lambda: cold_stars.modify(Pool(2, 0, 1), willpower=1),
        "Willpower can't upgrade",
    ),
    "cs willpower too many": (
        lambda: cold_stars.modify(Pool(2, 0, 0), willpower=3),
        "this pool has 2, not 3",
    ),
    "cs negative willpower": (
        lambda: cold_stars.modify(Pool(2, 0, 0), willpower=-1),
        "Willpower dice must be at least 0",
    ),
    "cs press not bool": (
        lambda: cold_stars.modify(Pool(2, 0, 0), press=1),
        "Press must be true or false",
    ),
    "cs cost two modifications": (
        lambda: cold_stars.modification_cost(brace=True, willpower=1),
        "Only one pre-roll",
    ),
    "cs face eleven": (
        lambda: Faces(ability=(11,)),
        "A d10 ability die shows 1 to 10; 11 is not a face",
    ),
    "cs face zero": (lambda: Faces(risk=(0,)), "A d10 risk die shows 1 to 10; 0 is not a face"),
    "cs faces both": (lambda: Faces(skill=(1,), risk=(1,)), "never holds Skill and Risk"),
    "cs faces empty": (lambda: Faces(), "at least one die"),
    "cs faces too many": (lambda: Faces(ability=(1,) * 6), "More dice than any Cold Stars pool"),
    "cs faces too much risk": (lambda: Faces(risk=(1,) * 9), "More Risk dice"),
    "cs resolve not faces": (lambda: cold_stars.resolve((1, 2)), "resolve takes Faces"),
    "cs skip not a pool": (lambda: cold_stars.skip(3), "skip takes a Pool"),
    "cs skip contested": (
        lambda: cold_stars.skip(Pool(1, 0, 0), contested=True),
        "contested roll can't be skipped",
    ),
    "cs skip modified": (
        lambda: cold_stars.skip(Pool(1, 0, 0), modified=True),
        "after Press, Brace or Willpower",
    ),
    "cs skip modified not bool": (
        lambda: cold_stars.skip(Pool(1, 0, 0), modified=1),
        "Modified must be true or false",
    ),
    "cs skip high risk": (lambda: cold_stars.skip(Pool(1, 0, 3)), "3 Risk dice left"),
    "cs passive ability": (
        lambda: cold_stars.passive_risk(ability=0, skill=1),
        "Passive side's Ability",
    ),
    "cs passive skill": (
        lambda: cold_stars.passive_risk(ability=1, skill=6),
        "Passive side's Skill",
    ),
    "cs contest not faces": (
        lambda: cold_stars.contest(Faces(ability=(1,)), None),
        "contest takes Faces for side B",
    ),
    "cs contest risk": (
        lambda: cold_stars.contest(Faces(risk=(1,)), Faces(ability=(1,))),
        "Side A rolled Risk dice",
    ),
    "cs odds not a pool": (lambda: cold_stars.odds({"ability": 1}), "odds takes a Pool"),
    "cs contest odds not a pool": (
        lambda: cold_stars.contest_odds(Pool(1, 0, 0), 2),
        "contest_odds takes a Pool for side B",
    ),
    "cs contest odds risk": (
        lambda: cold_stars.contest_odds(Pool(1, 0, 1), Pool(1, 0, 0)),
        "Side A's pool has Risk dice",
    ),
    "cs roll not a pool": (lambda: cold_stars.roll(3, None), "roll takes a Pool"),
    "cs symbol kind": (lambda: cold_stars.symbol("boost", 3), "ability, skill or risk die"),
    "cs symbol face": (lambda: cold_stars.symbol("skill", 11), "11 is not a face"),
}


@pytest.mark.parametrize(("call", "message"), CASES.values(), ids=CASES.keys())
def test_value_error(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")) as info:
        call()
    # A GM reads these: a full sentence, no Python repr noise like "<lambda>".
    assert str(info.value).endswith((".", "!")) and "<" not in str(info.value)


# The odds are memoised (rules/_common.py ``memoised``): what is remembered never turns a
# refusal into an answer, and no caller can change what another is handed.
def test_memoised_odds_refuse_a_wrong_type_after_its_equal_value_was_answered():
    assert cogent.odds(3, challenge_level=2, destiny_before=True)  # remembered for True …
    with pytest.raises(ValueError, match="must be true or false"):
        cogent.odds(3, challenge_level=2, destiny_before=1)  # … so 1 must not find it
    assert dad6.odds(3, competence="trained", difficulty=2)
    with pytest.raises(ValueError, match="whole number"):
        dad6.odds(3, competence="trained", difficulty=2.0)


def test_memoised_odds_take_an_unhashable_argument_to_the_engine_to_be_refused():
    with pytest.raises(ValueError, match="odds takes a Pool"):
        cold_stars.odds([1, 2, 0])


def test_memoised_odds_hand_out_a_new_dict_each_time():
    first = cogent.odds(4, challenge_level=3)
    first["success"] = 1
    first.clear()
    assert cogent.odds(4, challenge_level=3) == cogent.odds.__wrapped__(4, challenge_level=3)
    assert cogent.odds(4, challenge_level=3) is not cogent.odds(4, challenge_level=3)
