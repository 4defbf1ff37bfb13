"""Inputs for the unit-level parity goldens (``golden/units.json``): fuzzy near-match searches,
HTML and Markdown tables, text normalisation and the repetition count, each decided by the
reference's own functions (fuzzysearch 0.8.1, olmOCR-bench's ``table_parsing``, ``normalize_text``
and ``RepeatDetector``) in ``record_olmocr_units.py``. Deterministic: the same lists on every
run."""

from __future__ import annotations

import random

__all__ = ["FORMULA_PAIRS", "HTML", "MARKDOWN", "NEAR", "TEXTS"]


def _near() -> list[tuple[str, str, int]]:
    rng = random.Random(27)
    cases: list[tuple[str, str, int]] = []
    for _ in range(400):
        alphabet = rng.choice(["ab", "abc ", "abcdefgh ", "the quick brown fox "])
        size = rng.randint(1, 14)
        needle = "".join(rng.choice(alphabet) for _ in range(size))
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        if rng.random() < 0.5 and text:
            at = rng.randint(0, len(text))
            text = text[:at] + needle + text[at:]
        dist = rng.randint(0, size // 2)
        cases.append((needle, text, dist))
    prose = ("We request that repairs begin before the winter season arrives in the valley. "
             "Yours faithfully, The Committee. The bridge is old and the bridge is unsafe.")
    for needle, dist in [("winter season", 2), ("the bridge", 1), ("bridge", 3), ("Yours", 2),
                         ("The Comittee", 1), ("valley", 0), ("xyz", 1), ("repairs begn", 1),
                         ("aaaa", 2), ("the", 1)]:
        cases.append((needle, prose, dist))
    cases.append(("aaaa", "a" * 30, 2))
    cases.append(("abab", "ab" * 20, 1))
    return cases


NEAR = _near()

HTML = [
    "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>",
    "<table><tr><td>a<td>b<tr><td>c<td>d</table>",
    "<TABLE><TR><TD>A</TD></TR></TABLE>",
    "<table><thead><tr><th>h1</th><th>h2</th></tr></thead><tbody><tr><td>1</td><td>2</td>"
    "</tr></tbody></table>",
    "<table><tr><td rowspan='0'>r</td><td>1</td></tr><tr><td>2</td></tr><tr><td>3</td></tr>"
    "</table>",
    "<table><tr><td rowspan='abc' colspan=' 2 '>x</td></tr><tr><td>1</td><td>2</td></tr></table>",
    "<table><tr><td colspan='-1'>x</td><td colspan='0'>y</td><td colspan='2.0'>z</td></tr>"
    "<tr><td>1</td><td>2</td><td>3</td></tr></table>",
    "<table><tr><td colspan=2 colspan=3>x</td></tr><tr><td>1</td><td>2</td><td>3</td></tr>"
    "</table>",
    "<table><tr><td>a&amp;b &nbsp;c &foo; &#65;&#x42; &#150; &#0; &#xD800; &#65abc &amp</td>"
    "</tr></table>",
    "<table><tr><td>one<br>two<br/>three</br>four</td></tr></table>",
    "<table><tr><td><!-- hidden -->shown<![CDATA[cdata]]></td></tr></table>",
    "<table><tr><td><script>var x = '<td>';</script>after</td><td><style>p{}</style>s</td>"
    "</tr></table>",
    "<table><tr><td><template>tpl</template>t</td><td><ruby>k<rt>r</rt><rp>(</rp></ruby>"
    "</td></tr></table>",
    "<table><tr><td><pre>  </pre>x</td><td>  <b>a</b>   <i>b</i>  </td></tr></table>",
    "<table><tr><td> \n </td><td>\t</td></tr></table>",
    "<table><tr><td>outer<table><tr><td>in1</td><td>in2</td></tr></table></td><td>o2</td></tr>"
    "</table>",
    "<table><tr><th>x</th><td>1</td></tr></table><p>between</p><table><tr><td>t2</td></tr>"
    "</table>",
    "<table></table><table><tr></tr></table><table><tr><td></td></tr></table>",
    "<table><tr><td>a</td></tr><tr><td>b</td><td>c</td><td>d</td></tr><tr></tr>"
    "<tr><td>e</td></tr></table>",
    "<table><tr><td rowspan=3>a</td><td>b</td></tr></table>",
    "<table><tr><td rowspan=2 colspan=2>a</td><td>b</td></tr><tr><td>c</td></tr>"
    "<tr><td>d</td><td>e</td><td>f</td></tr></table>",
    "<table><caption>cap</caption><colgroup><col><col></colgroup><tr><td>a</td></tr></table>",
    "<table><tr><td>a</td></tr></div></span></tr><tr><td>b</td></tr></table>",
    "<table><thead><tr><td>a</td></tr><tr><td>b</td></tr></thead><tr><td>c</td></tr></table>",
    "<div><table><tr><td>a</td><td>b</td></tr></table></div></table><tr><td>loose</td></tr>",
    "<table><tr><td>unclosed table cell",
    "<table><tr><td>x</td></tr></table><table><thead><tr><th>h</th></tr></thead>"
    "<tr><td>v</td></tr></table>",
    "text <table border=1><tr><td>a</td><th>b</th></tr><tr><th>c</th><td>d</td></tr></table>",
    "<table><tr><td>é</td><td>e\u0301</td><td>“q”</td></tr></table>",
    "<table><tr><td><p>para 1</p><p>para 2</p></td><td><ul><li>i1</li><li>i2</li></ul></td>"
    "</tr></table>",
    "<table><tr><td>a<img src=x>b<hr>c<input value=v>d</td></tr></table>",
    "<table><tr><td>a</td></tr><tr><table><tr><td>deep</td></tr></table></tr></table>",
    "<table>\n  <tr>\n    <td>\n      spaced\n    </td>\n  </tr>\n</table>",
    "<table><tr><td>&lt;b&gt;not bold&lt;/b&gt;</td><td>&#x1F600;</td><td>&#1114112;</td></tr>"
    "</table>",
    "<table><tr><td>a</td><td>b</td></tr><tr><td colspan=5>wide</td></tr></table>",
    "<table><tr><td>x</table><table><tr><td>y",
]

MARKDOWN = [
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "| a | b |\n| 1 | 2 |\n| 3 |",
    "a | b\n--|--\n1 | 2",
    "| a |\n|:-:|\n| x |\n\n| c | d |\n|---|---|\n| 3 | 4 |",
    "| only one line |",
    "|---|---|\n| 1 | 2 |",
    "| a | b |\n| - | - |\n| | |\n| 1 | |",
    "text\n| a | b |\n|---|---|\n| 1 | 2 |\ntrailing text",
    "| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n",
    "||\n||",
    "| h1 | h2 | h3 |\n|---|---|---|\n| a | b |\n| c | d | e | f |",
    "| x | y |\n| --- | --- |\n| **bold** | _it_ |\n| a<br>b | c |",
]

TEXTS = [
    "**Bold** and __under__ and <b>b</b> <i>i</i> *it* _it_",
    "a * b * c and a_b_c and snake_case_name",
    "***bold italic*** and ___both___",
    "line1<br>line2<br/>line3<br />line4",
    "quotes ‘a’ ‚b‚ “c” „d„ ＿ – — ‑ ‒ − µ",
    "e\u0301 and A\u030a and \u212b",
    "tabs\tand\nnewlines\r\nand   spaces\u00a0nbsp\u2003em",
    "**unclosed bold and *unclosed italic",
    "**multi\nline bold**",
    "",
    "   ",
    "x" * 5 + "abc" * 40,
    "the end the end the end the end",
    "=====\n=====\n=====",
    "ab " * 31 + "ab",
]

#: (reference formula, candidate formula): olmOCR-bench's compare_rendered_equations on their
#: KaTeX renderings in Chromium (MathML containment, then the layout of the characters)
FORMULA_PAIRS = [
    ("a^2 + b^2 = c^2", "a^{2}+b^{2}=c^{2}"),
    ("a^2 + b^2 = c^2", "a^2 + b^2 = c^3"),
    ("\\frac{a}{b}", "a/b"),
    ("\\frac{a}{b}", "\\frac{b}{a}"),
    ("\\frac{a}{b}", "\\dfrac{a}{b}"),
    ("\\sqrt{x}", "\\frac{1}{\\sqrt{x}+1}"),
    ("x_i^2", "x^2_i"),
    ("x_i^2", "x_{i}^{2} + y"),
    ("\\sum_{i=1}^{n} i", "\\sum_{j=1}^{n} j"),
    ("\\sum_{i=1}^{n} i", "\\sum\\limits_{i=1}^{n} i"),
    ("\\int_0^1 f(x)\\,dx", "\\int_{0}^{1} f(x) dx"),
    ("\\alpha + \\beta", "\\alpha+\\beta+\\gamma"),
    ("\\alpha + \\beta", "\\beta + \\alpha"),
    ("E = mc^2", "E=mc^{2}"),
    ("E = mc^2", "mc^2 = E"),
    ("\\mathbf{v}", "\\boldsymbol{v}"),
    ("\\left( x \\right)", "(x)"),
    ("\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}",
     "\\begin{pmatrix} a & c \\\\ b & d \\end{pmatrix}"),
    ("\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}",
     "\\left(\\begin{matrix} a & b \\\\ c & d \\end{matrix}\\right)"),
    ("x < y", "x \\lt y"),
    ("\\text{if } x > 0", "\\mathrm{if}\\ x>0"),
    ("\\frac{a}{b}", "\\frac{a}{"),
    ("\\frac{a}{", "\\frac{a}{b}"),
    ("f(x) = x^2", "f ( x ) = x ^ 2"),
    ("a_1 + a_2", "a_2 + a_1"),
    ("\\hat{x}", "\\widehat{x}"),
    ("\\vec{F} = m\\vec{a}", "\\mathbf{F} = m\\mathbf{a}"),
    ("\\lim_{x \\to 0} f(x)", "\\lim\\limits_{x\\rightarrow 0} f(x)"),
]
