"""How a chance is shown to people (``percent``): one decimal, but never a rounding that lies —
a possible outcome never reads "0.0%", an uncertain one never "100.0%", and only the exact 0 and
1 read "0%" and "100%"."""

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rolls.rolling.display import BAND_ORDER, bands, percent
from rolls.rolling.outcomes import cogent_detail, plural
from rules import cogent

THOUSANDTH = Fraction(1, 1000)  # 0.1%, the smallest figure one decimal can show


@pytest.mark.parametrize(
    ("chance", "shown"),
    [
        # Exact certainties are whole numbers, without a decimal.
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        # Just above nothing: "<0.1%", never "0.0%"; 0.1% itself is shown as it is.
        (Fraction(1, 10**9), "<0.1%"),
        (THOUSANDTH - Fraction(1, 10**9), "<0.1%"),
        (THOUSANDTH, "0.1%"),
        (THOUSANDTH + Fraction(1, 10**9), "0.1%"),
        # Just below certainty: ">99.9%", never "100.0%"; 99.9% itself is shown as it is.
        (1 - THOUSANDTH - Fraction(1, 10**9), "99.9%"),
        (1 - THOUSANDTH, "99.9%"),
        (1 - THOUSANDTH + Fraction(1, 10**9), ">99.9%"),
        (1 - Fraction(1, 10**9), ">99.9%"),
        # In between: one decimal, rounded.
        (Fraction(1, 2), "50.0%"),
        (Fraction(1, 3), "33.3%"),
        (Fraction(2, 3), "66.7%"),
        (Fraction(441, 1000), "44.1%"),
        (Fraction(1, 36), "2.8%"),
        # Half a tenth rounds up, on the exact fraction (a float would say 71.5%, 6.2%, 31.2%).
        (Fraction(1431, 2000), "71.6%"),
        (Fraction(1, 16), "6.3%"),
        (Fraction(5, 16), "31.3%"),
        (Fraction(193, 400), "48.3%"),
        (Fraction(1431, 2000) - Fraction(1, 10**12), "71.5%"),
    ],
)
def test_percent(chance, shown):
    assert percent(chance) == shown


@given(st.fractions(min_value=0, max_value=1, max_denominator=10**12))
def test_a_possible_outcome_never_reads_impossible_nor_an_uncertain_one_certain(chance):
    shown = percent(chance)
    if chance == 0:
        assert shown == "0%"
    elif chance == 1:
        assert shown == "100%"
    else:
        assert shown not in {"0%", "0.0%", "100%", "100.0%"}, (chance, shown)
        if shown not in {"<0.1%", ">99.9%"}:
            # Otherwise the figure is the chance to one decimal.
            assert abs(float(shown.removesuffix("%")) - float(chance * 100)) <= 0.05 + 1e-9
            # … rounded half up on the exact fraction: the exact value is in [shown − ½, shown + ½).
            tenths = Fraction(shown.removesuffix("%")) * 10
            assert tenths - Fraction(1, 2) <= chance * 1000 < tenths + Fraction(1, 2)


@pytest.mark.parametrize(
    ("count", "word", "words"),
    [
        (1, "win", "1 win"),
        (3, "win", "3 wins"),
        (0, "boon", "0 boons"),
        (1, "Risk die", "1 Risk die"),
        (2, "Ability die", "2 Ability dice"),
    ],
)
def test_plural_says_dice(count, word, words):
    assert plural(count, word) == words


def test_a_cogent_detail_does_not_repeat_its_outcome():
    """The outcome is the entry's headline; the detail says by how much (not "Failure … failure")."""
    failure = cogent.resolve([6, 5, 5, 1], challenge_level=4)
    assert cogent_detail(failure, reflexive=False) == "3 wins vs CL 4, short by 1"
    success = cogent.resolve([6, 6, 6, 6, 5], challenge_level=3)
    assert cogent_detail(success, reflexive=False) == "5 wins vs CL 3, margin 2"
    critical = cogent.resolve([1, 2, 3], challenge_level=2)
    assert cogent_detail(critical, reflexive=False) == "0 wins vs CL 2"


@given(
    st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=len(BAND_ORDER)),
    st.permutations(BAND_ORDER),
)
def test_bands_are_the_odds_in_order_and_fill_the_bar(weights, codes):
    total = sum(weights)
    odds = {code: Fraction(w, total) for code, w in zip(codes, weights, strict=False)}
    first, again = bands(odds), bands(dict(reversed(odds.items())))
    # Memoised, yet each caller gets a list of its own, whatever order the odds came in.
    assert first == again and first is not again
    assert [band.code for band in first] == [code for code in BAND_ORDER if code in odds]
    assert [band.chance for band in first] == [odds[band.code] for band in first]
    assert sum(band.width for band in first) == 1000
    assert all(a.x + a.width == b.x for a, b in pairwise(first))
