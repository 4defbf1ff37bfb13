"""``normalise._plain_soup`` (the table normalisation's serialisation written while plain HTML
is read, without the tree) against ``html.unescape(_soup_html(text))`` (the tree built, edited
and serialised), and ``table_key`` against its transcription through the tree."""

from __future__ import annotations

import html
import re
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from parsescore.document.normalise import (
    _ATTRIBUTES,
    _HTML_PREFIX,
    _TABLE_BODY,
    _plain_soup,
    _plain_tree,
    _soup_html,
    table_key,
)

_tags = st.sampled_from(["table", "TR", "td", "Th", "th", "thead", "THEAD", "tbody", "span",
                         "Span", "br", "img", "p", "math", "MATH", "sub", "pre", "PRE", "b",
                         "script", "title", "colgroup", "col", "hr"])  # fmt: skip
_values = st.text(alphabet='ab 1"&<>\n', max_size=6)
_attributes = st.lists(
    st.tuples(st.sampled_from(["colspan", "ROWSPAN", "class", "alttext", "AltText", "style",
                               "a_b"]),
              _values, st.sampled_from(['"', "'", ""])),
    max_size=3,
)  # fmt: skip
_spaces = st.sampled_from(["", " ", "  ", "\n", "\t"])
_token = st.one_of(
    st.builds(lambda t, a, w, c: f"<{t}" + "".join(f" {k}={q}{v}{q}" for k, v, q in a)
              + w + ("/" if c else "") + ">", _tags, _attributes, _spaces, st.booleans()),
    st.builds(lambda t, w: f"</{t}{w}>", _tags, _spaces),
    st.text(alphabet="ab 1\n\t\r\x0c±>", max_size=8),
    st.sampled_from([" ", "\n", " \n ", "\t", "x > y", "&amp;", "<!-- c -->", "< b"]),
)  # fmt: skip


# Plain HTML only (double-quoted attribute values free of &<>", text free of & and <), so that
# most examples take the stream.
_plain_tags = st.sampled_from(["table", "tr", "TD", "th", "Th", "thead", "span", "SPAN",
                               "br", "img", "p", "math", "Math", "pre", "b", "col"])  # fmt: skip
_plain_attributes = st.lists(
    st.tuples(st.sampled_from(["colspan", "alttext", "ALTTEXT", "style", "class", "x-y"]),
              st.text(alphabet="ab 1\n\t±'", max_size=5)),
    max_size=3,
)  # fmt: skip
_plain_token = st.one_of(
    st.builds(lambda t, a, w, c: f"<{t}" + "".join(f' {k}="{v}"' for k, v in a)
              + w + ("/" if c else "") + ">", _plain_tags, _plain_attributes,
              st.sampled_from(["", " ", "\n"]), st.booleans()),
    st.builds(lambda t: f"</{t}>", _plain_tags),
    st.text(alphabet="ab 1\n\t\r\x0c±>'", max_size=6),
    st.sampled_from([" ", "\n", " \n ", "\t\t", "  "]),
)  # fmt: skip


def table_key_through_tree(text: str) -> str:
    """``table_key`` as it was written before the stream: the tree's serialisation."""
    result = ""
    if "<table" in text.replace(" ", "").replace("'", '"'):
        result = html.unescape(_soup_html(text)).replace("\n", "")
        result = unicodedata.normalize("NFKC", result).strip()
        result = "".join(_TABLE_BODY.findall(result))
        for pattern in _ATTRIBUTES:
            result = pattern.sub("", result)
        result = re.sub("</?tbody>", "", result)
        result = re.sub(r"\s+", " ", result)
        result = _HTML_PREFIX + result + "</table></body></html>"
    for tag in ("sup", "sub", "span", "div", "p"):
        result = result.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    result = result.replace('<spandata-span-identity="">', "")
    return re.sub("<colgroup>.*?</colgroup>", "", result)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_token, max_size=30))
@example(["<table>", "<math alttext='x'>", "<b>", "in", "</math>", "</b>", "after"])
@example(["<pre>", " ", "<b>", "\n ", "</b>", "</pre>", " \n", "</x>", " "])
@example(["<table>", "<thead>", "<th/>", "<span>", "a", "</thead>", "b", "</span>"])
@example(["a", "</td>", " ", "</tr>", "b", "<br>", " ", "<math/>", "<MATH ALTTEXT='q'/>"])
def test_stream_is_the_trees_serialisation(tokens: list[str]) -> None:
    text = "".join(tokens)
    stream = _plain_soup(text)
    assert (stream is None) == (_plain_tree(text) is None)
    if stream is not None:
        assert stream == html.unescape(_soup_html(text))
    wrapped = "<table>" + text + "</table>"
    assert table_key(wrapped) == table_key_through_tree(wrapped)
    assert table_key(text) == table_key_through_tree(text)


def test_ordinary_tables_take_the_stream() -> None:
    table = ('<table border="1">\n<thead><tr><th colspan="2">A  b</th></tr></thead>\n'
             '<tr><td rowspan="2">1 ± 2 &gt; 1</td><td>x<br/>y<span>z</span></td></tr>'
             '<tr><td><math alttext="x^2"><mi>x</mi></math></td></tr></table>')  # fmt: skip
    assert table_key(table) == table_key_through_tree(table)
    plain = table.replace(" &gt; 1", "")
    assert _plain_soup(plain) == html.unescape(_soup_html(plain))


@settings(max_examples=2000, deadline=None)
@given(st.lists(_plain_token, max_size=40))
def test_stream_of_plain_html(tokens: list[str]) -> None:
    text = "".join(tokens)
    stream = _plain_soup(text)
    assert stream is not None
    assert stream == html.unescape(_soup_html(text))
    wrapped = "<table>" + text + "</table>"
    assert table_key(wrapped) == table_key_through_tree(wrapped)
