"""A message's Markdown becomes safe HTML through a parser and a sanitizer (rolls/messages/text.py):
what a member types can never become markup of ours."""

from html.parser import HTMLParser

import pytest

from rolls.messages.text import ATTRIBUTES, TAGS, to_html, to_plain


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("*a* **b** ~~c~~ `d`", "<p><em>a</em> <strong>b</strong> <s>c</s> <code>d</code></p>"),
        ("one\ntwo", "<p>one<br>\ntwo</p>"),
        (
            "> said\n\n- x\n- y",
            "<blockquote>\n<p>said</p>\n</blockquote>\n<ul>\n<li>x</li>\n<li>y</li>\n</ul>",
        ),
    ],
)
def test_the_small_subset_renders(text, html):
    assert to_html(text).strip() == html


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        '<a href="https://x" onclick="alert(1)">x</a>',
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "[x](vbscript:msgbox)",
        "![x](https://evil.example/track.png)",
        "<iframe src=https://x></iframe>",
        "<style>body{display:none}</style>",
        "<!-- comment --><b>bold</b>",
        "# A heading\n\n| a | b |\n|---|---|\n| 1 | 2 |",
        '[x](https://x "title" onmouseover=alert(1))',
        "&lt;script&gt;",
    ],
)
def test_nothing_of_ours_can_be_typed(text):
    """Whatever is typed, the HTML holds only the allowed tags and attributes, and links only to
    the web or to mail: anything else stays text."""
    for tag, attributes in tags_of(to_html(text)):
        assert tag in TAGS, (text, tag)
        assert {name for name, _ in attributes} <= ATTRIBUTES.get(tag, set()) | {"rel"}, text
        href = dict(attributes).get("href")
        assert href is None or href.split(":", 1)[0] in ("http", "https", "mailto"), href


def tags_of(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    found = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, attrs))

        def handle_comment(self, data):
            found.append(("!--", []))

    Collect().feed(html)
    return found


def test_links_open_safely_and_only_to_the_web_or_mail():
    html = to_html("[ok](https://a.example/x?y=1) <https://b.example> [m](mailto:gm@a.example)")
    assert html.count('rel="nofollow noopener noreferrer ugc"') == 3
    assert 'href="https://a.example/x?y=1"' in html and 'href="mailto:gm@a.example"' in html
    assert "href" not in to_html("[x](ftp://a.example/file)")


def test_plain_text_drops_the_markup_and_keeps_the_words():
    assert to_plain("**Run**, *now* & <b>go</b>\n\n> far") == "Run, now & <b>go</b> far"
