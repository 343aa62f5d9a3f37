"""Rolls of every system and every kind with dice, as their entries record them, made with the
Python engine and the app's own outcome helpers from seeded random options and faces: what the
browser's outcome reader (static/js/dice-readings.js) must read back exactly
(tests/browser/test_verify_dice.py)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from proofs.dice import VrfDice
from proofs.keys import ServerKey
from rolls.rolling.followups import CONTEST_ROLL
from rolls.rolling.outcomes import (
    cogent_faces,
    cogent_result,
    cold_stars_faces,
    dad6_faces,
    dad6_reading,
    dad6_result,
)
from rules import cogent, cold_stars, dad6

Case = dict[str, Any]


def _case(system: str, kind: str, options: dict[str, Any], **fields: Any) -> Case:
    return {"system": system, "kind": kind, "label": "Test", "options": options, **fields}


def _cogent_options(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {
        "challenge_level": rng.randint(cogent.CL_MIN, cogent.CL_MAX),
        "destiny_before": rng.random() < 0.3,
        "reflexive": rng.random() < 0.3,
    }
    if rng.random() < 0.3:
        options["assist"] = {"by": "Bo", "wins": rng.randint(-3, 3), "entry_hash": "0" * 64}
    return options


def cogent_case(rng: random.Random) -> Case:
    """A roll, its destiny follow-up, an assist or one side of a conflict."""
    kind = rng.choice(["roll", "roll", "destiny", "assist", CONTEST_ROLL])
    o = _cogent_options(rng)
    faces = cogent.roll(rng.randint(0, 14), rng)
    before = o["destiny_before"]
    if kind == CONTEST_ROLL:
        read = cogent.resolve(faces, destiny_before=before)
        result = {"wins": read.rolled_wins}
        return _case(
            "cogent", "roll", o, faces=cogent_faces(read), outcome=CONTEST_ROLL, result=result
        )
    if kind == "assist":
        o.pop("assist", None)
        o["challenge_level"] = max(o["challenge_level"], cogent.ASSIST_MIN_CL)
        cl = o["challenge_level"]
        read = cogent.resolve(faces, challenge_level=cl, destiny_before=before)
        value = cogent.assist(faces, challenge_level=cl, destiny_before=before)
        result = cogent_result(read, reflexive=False) | {"assist": value}
        return _case(
            "cogent", "assist", o, faces=cogent_faces(read), outcome=read.outcome, result=result
        )
    after = rng.randint(1, cogent.DESTINY_MAX - int(before)) if kind == "destiny" else 0
    read = cogent.resolve(
        faces,
        challenge_level=o["challenge_level"],
        destiny_before=before,
        destiny_after=after,
        assist=o.get("assist", {}).get("wins", 0),
    )
    result = cogent_result(read, reflexive=o["reflexive"])
    return _case("cogent", kind, o, faces=cogent_faces(read), outcome=read.outcome, result=result)


def dad6_case(rng: random.Random) -> Case:
    pool = rng.randint(1, 30)
    o = {
        "competence": rng.choice(dad6.COMPETENCES),
        "task": rng.choice(dad6.TASKS),
        "difficulty": rng.randint(dad6.DIFFICULTY_MIN, dad6.DIFFICULTY_MAX),
        "traded_boons": rng.randint(0, dad6.max_traded_boons(pool)),
        "forward_boons": rng.choice([0, 0, 0, 1, 2]),
    }
    faces = dad6.roll(pool, rng, traded_boons=o["traded_boons"])
    read = dad6.resolve(faces, **dad6_reading(o))
    return _case(
        "dad6", "roll", o, faces=dad6_faces(read), outcome=read.outcome, result=dad6_result(read)
    )


def _cold_stars_pool(rng: random.Random, *, risk: bool) -> cold_stars.Pool:
    ability = rng.randint(0, cold_stars.POOL_MAX_ABILITY)
    if risk and rng.random() < 0.5:
        return cold_stars.Pool(ability, 0, rng.randint(1, cold_stars.POOL_MAX_RISK))
    skill = rng.randint(0 if ability else 1, cold_stars.POOL_MAX_SKILL)
    return cold_stars.Pool(ability, skill, 0)


def cold_stars_case(rng: random.Random) -> Case:
    """A roll, its Correct, or one side of an active contest (Risk 0)."""
    kind = rng.choice(["roll", "roll", "correct", CONTEST_ROLL])
    faces = cold_stars.roll(_cold_stars_pool(rng, risk=kind != CONTEST_ROLL), rng)
    o = {"modification": "none"}
    if kind == CONTEST_ROLL:
        result = {"successes": cold_stars.successes(faces)}
        fields = {"faces": cold_stars_faces(faces), "outcome": CONTEST_ROLL, "result": result}
        return _case("cold_stars", "roll", o, **fields)
    outcome = cold_stars.resolve(faces)
    return _case("cold_stars", kind, o, faces=cold_stars_faces(faces), outcome=outcome, result={})


def cases(seed: int, per_system: int) -> list[Case]:
    rng = random.Random(seed)
    made = []
    for maker in (cogent_case, dad6_case, cold_stars_case):
        made += [maker(rng) for _ in range(per_system)]
    return made


# A server key of the tests' own (never a real one): the master seed is 32 fixed bytes.
TEST_KEY = ServerKey.from_seed(bytes(range(32)))
PUBLISHED = TEST_KEY.published(datetime(2026, 1, 1, tzinfo=UTC), None)


def _proven_faces(label: str, groups: tuple[tuple[str, int, int], ...]) -> tuple[Any, ...]:
    """Faces drawn from the VRF as the server draws them, and the proof record it keeps."""
    dice = VrfDice(
        TEST_KEY, 7, label, "nonce-from-the-browser", lambda: (12, "ab" * 32, "cd" * 32, 1), 3
    )
    return dice.draw(groups), dice.record()


def proven_cogent_roll(*, challenge_level: int = 3) -> Case:
    """A Cogent roll with its proof and the published key, as the permalink's island has it."""
    (faces,), proof = _proven_faces("Athletics", (("d6", 6, 6),))
    o = {"challenge_level": challenge_level, "destiny_before": False, "reflexive": False}
    read = cogent.resolve(faces, challenge_level=challenge_level)
    made = _case("cogent", "roll", o, faces=cogent_faces(read), outcome=read.outcome)
    return made | {
        "label": "Athletics",
        "result": cogent_result(read, reflexive=False),
        "pool": {"dice": 6},
        "proof": proof,
        "key": PUBLISHED,
    }


def proven_cold_stars_roll() -> Case:
    """A Cold Stars roll: three groups in the spec's order, the Skill group empty."""
    groups = (("ability", 3, 10), ("skill", 0, 10), ("risk", 2, 10))
    (ability, skill, risk), proof = _proven_faces("Piloting", groups)
    faces = cold_stars.Faces(ability=ability, skill=skill, risk=risk)
    outcome = cold_stars.resolve(faces)
    made = _case("cold_stars", "roll", {}, faces=cold_stars_faces(faces), outcome=outcome)
    pool = {"ability": 3, "skill": 0, "risk": 2}
    return made | {
        "label": "Piloting",
        "result": {},
        "pool": pool,
        "proof": proof,
        "key": PUBLISHED,
    }
