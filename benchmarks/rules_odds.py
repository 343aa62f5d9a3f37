"""Time every odds call the UI can make, over every legal pool, and print the worst.

The UI recomputes odds on every option change and shows one set per step-4 choice, so the figure
that matters is the slowest single call, not the average. Each argument set is timed REPEATS times,
once in each of REPEATS passes over all of them, and its median kept (one stray scheduler hiccup,
or a burst of another tenant's on a virtual machine's host, is not the engine's cost); the worst of
those medians is reported. Target: under 1 ms per call.

The systems' odds are memoised (rules/_common.py): a panel asking again for odds it asked
for before gets a remembered answer. What is timed here is the engine working them out, the first
time: the function the memo wraps (``_computed``), never a remembered answer.

Run with ``make bench-rules``.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator

from rules import cogent, cold_stars, dad6

REPEATS = 5
TARGET_MS = 1.0


def _computed[F: Callable[..., object]](odds: F) -> F:
    """The engine's own computation behind a memoised odds function."""
    return getattr(odds, "__wrapped__", odds)  # type: ignore[no-any-return]


COGENT_ODDS = _computed(cogent.odds)
DAD6_ODDS = _computed(dad6.odds)
COLD_STARS_ODDS = _computed(cold_stars.odds)


def cogent_calls() -> Iterator[tuple[str, Callable[[], object]]]:
    for pool in range(cogent.MAX_POOL + 1):
        for cl in range(cogent.CL_MIN, cogent.CL_MAX + 1):
            for before in (False, True):
                for after in range(cogent.DESTINY_MAX - before + 1):
                    for assist in range(-cogent.CL_MAX, cogent.CL_MAX + 1):
                        yield (
                            f"cogent.odds({pool}, CL {cl}, before={before}, after={after}, assist={assist})",
                            lambda p=pool, c=cl, b=before, a=after, s=assist: COGENT_ODDS(
                                p, challenge_level=c, destiny_before=b, destiny_after=a, assist=s
                            ),
                        )


def cogent_conflict_calls() -> Iterator[tuple[str, Callable[[], object]]]:
    for a in range(cogent.MAX_POOL + 1):
        for b in range(cogent.MAX_POOL + 1):
            for before_a in (False, True):
                for before_b in (False, True):
                    yield (
                        f"cogent.conflict_odds({a}, {b}, {before_a}, {before_b})",
                        lambda a=a, b=b, x=before_a, y=before_b: cogent.conflict_odds(
                            a, b, destiny_before_a=x, destiny_before_b=y
                        ),
                    )


def dad6_calls() -> Iterator[tuple[str, Callable[[], object]]]:
    for pool in range(dad6.MAX_POOL + 1):
        for competence in dad6.COMPETENCES:
            for task in dad6.TASKS:
                for difficulty in range(dad6.DIFFICULTY_MIN, dad6.DIFFICULTY_MAX + 1):
                    for traded in range(dad6.max_traded_boons(pool) + 1):
                        yield (
                            f"dad6.odds({pool}, {competence}, {task}, D{difficulty}, traded={traded})",
                            lambda p=pool, c=competence, t=task, d=difficulty, x=traded: DAD6_ODDS(
                                p, competence=c, task=t, difficulty=d, traded_boons=x
                            ),
                        )


def cold_stars_pools() -> set[cold_stars.Pool]:
    """Every pool reachable through build_pool and one step-4 modification."""
    pools = set()
    for ability in range(cold_stars.ABILITY_MIN, cold_stars.ABILITY_MAX + 1):
        for skill in range(cold_stars.SKILL_MAX + 1):
            for risk in range(cold_stars.RISK_MAX + 1):
                for trained in (True, False):
                    if not trained and skill:
                        continue
                    for outside in (False, True):
                        built = cold_stars.build_pool(
                            ability=ability,
                            skill=skill,
                            risk=risk,
                            trained=trained,
                            domain_skill=True,
                            in_domain=not outside,
                        )
                        pools.add(built)
                        pools.add(cold_stars.modify(built, press=True))
                        if built.risk:
                            pools.add(cold_stars.modify(built, brace=True))
                        else:
                            for n in range(1, built.ability + 1):
                                pools.add(cold_stars.modify(built, willpower=n))
    return pools


def cold_stars_calls() -> Iterator[tuple[str, Callable[[], object]]]:
    for pool in sorted(cold_stars_pools(), key=lambda p: (p.ability, p.skill, p.risk)):
        yield f"cold_stars.odds({pool})", lambda p=pool: COLD_STARS_ODDS(p)


def cold_stars_contest_calls() -> Iterator[tuple[str, Callable[[], object]]]:
    contest_pools = sorted(
        {p for p in cold_stars_pools() if not p.risk}, key=lambda p: (p.ability, p.skill)
    )
    for a in contest_pools:
        for b in contest_pools:
            yield (
                f"cold_stars.contest_odds({a}, {b})",
                lambda a=a, b=b: cold_stars.contest_odds(a, b),
            )


def measure(calls: Iterator[tuple[str, Callable[[], object]]]) -> tuple[int, float, float, str]:
    """(argument sets, median of their medians, worst median, the worst set's label). The
    timings of one set are taken in separate passes over all of them, seconds apart, so that a
    burst of the machine's own (a virtual machine's host busy with another tenant for a few
    milliseconds) can't be all of one set's timings, as it could when they were back to back."""
    listed = list(calls)
    samples: list[list[int]] = [[] for _ in listed]
    clock = time.perf_counter_ns
    for _ in range(REPEATS):
        for (_, call), timings in zip(listed, samples, strict=True):
            start = clock()
            call()
            timings.append(clock() - start)
    medians = [statistics.median(timings) / 1e6 for timings in samples]
    worst = max(range(len(listed)), key=medians.__getitem__)
    return len(listed), statistics.median(medians), medians[worst], listed[worst][0]


def main() -> int:
    print(
        f"Poolside rules engine — odds benchmark ({REPEATS} timings per argument set, median kept)"
    )
    print(
        f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or 'unknown CPU'})"
    )
    print(f"{'function':<26} {'argument sets':>13} {'median ms':>10} {'worst ms':>9}  worst case")
    failed = False
    suites = [
        ("cogent.odds", cogent_calls()),
        ("cogent.conflict_odds", cogent_conflict_calls()),
        ("dad6.odds", dad6_calls()),
        ("cold_stars.odds", cold_stars_calls()),
        ("cold_stars.contest_odds", cold_stars_contest_calls()),
    ]
    for name, calls in suites:
        count, median, worst, label = measure(calls)
        failed |= worst >= TARGET_MS
        print(f"{name:<26} {count:>13} {median:>10.4f} {worst:>9.4f}  {label}")
    print(f"target: every call under {TARGET_MS} ms — {'MISSED' if failed else 'met'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
