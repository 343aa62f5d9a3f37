"""Layout checks the browser tests share: a select that cuts its choices off, a word split across
lines, a box that leaves its container."""

from __future__ import annotations

from typing import Any

# A closed select shows only the start of a choice wider than itself ("Mundane (+0 per…" once on
# the GM table). A choice wider than the whole row (a long name on a phone) can't fit; its select
# must then take the whole row. Returns the names of the selects under `scope` that do neither.
_CLIPPED_SELECTS = """scope => {
  const ctx = document.createElement("canvas").getContext("2d");
  return [...document.querySelectorAll(`${scope} select`)].filter(select => {
    const style = getComputedStyle(select);
    ctx.font = style.font;
    const widest = Math.max(...[...select.options].map(o => ctx.measureText(o.text).width));
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const whole = select.getBoundingClientRect().width >= select.form.clientWidth - 1;
    return widest > room && !whole;
  }).map(select => select.name);
}"""


def clipped_selects(page: Any, scope: str) -> list[str]:
    return page.evaluate(_CLIPPED_SELECTS, scope)


# A word split across two lines (overflow-wrap: anywhere lets a table column shrink below its
# longest word: "Willpowe/r:"). Returns the words under `selector` that are split.
_SPLIT_WORDS = """selector => [...document.querySelectorAll(selector)].flatMap(el => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const split = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      if (range.getClientRects().length > 1) split.push(word[0]);
    }
  }
  return split;
})"""


def split_words(page: Any, selector: str) -> list[str]:
    return page.evaluate(_SPLIT_WORDS, selector)


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    """Whether one bounding box (Playwright's ``bounding_box()``) lies within another, to the
    half pixel a fractional layout may round to."""
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )
