"""Test folders and candidates written for parsescore, covering every olmOCR-bench test type
(math apart: see README.md) and the harness's edge cases; ``write_cases(root)`` writes them as
olmOCR-bench reads them: ``<root>/<case>/`` holds the JSONL files, ``pdfs/`` (minimal PDFs with
the right page counts) and one folder per candidate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["CASES", "write_cases"]


def pdf_bytes(pages: int) -> bytes:
    """A minimal valid PDF with ``pages`` empty pages (pypdf reads its page count)."""
    kids = " ".join(f"{3 + k} 0 R" for k in range(pages))
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>",
        *("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>" for _ in range(pages)),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _t(pdf: str, id_: str, type_: str, page: int = 1, **fields: Any) -> dict[str, Any]:
    return {"pdf": pdf, "page": page, "id": id_, "type": type_, **fields}


# --- case "types": every test type on three PDFs, many candidates ---

REPORT = """# Annual Report 2024

The **quick** brown fox jumps over the _lazy_ dog.
It said “hello” — and then it left.<br>Next line here.
Values were measured in µm and 5–10 units.

## Results

| Region | Q1 | Q2 |
|---|---|---|
| North | 10 | 12 |
| South | 7 | 9 |

Footnote reference here[^1] and a superscript<sup>2</sup> mark, also³ unicode.

[^1]: The first footnote text.

<table>
<thead><tr><th>Name</th><th colspan="2">Scores</th></tr></thead>
<tr><td rowspan="2">Alice</td><td>90</td><td>85</td></tr>
<tr><td>70</td><td>65&amp;5</td></tr>
<tr><td>Bob<br>Jr</td><td>60</td><td><!-- c -->55</td></tr>
</table>

*Closing italic words* and __underlined bold__ and <strong>strong text</strong>.
<h3>An HTML Heading</h3>
"""

LETTER = """Dear Sir,

I write to you concerning the matter of the bridge. The bridge is old and unsafe.
We request that repairs begin before the winter season arrives in the valley.

Yours faithfully,
The Committee
"""

TABLES = """Intro text.

<table>
<tr><th></th><th>2019</th><th>2020</th></tr>
<tr><th>Revenue</th><td>1,000</td><td>1,200</td></tr>
<tr><th>Costs</th><td>800</td><td>900
<tr><td>Net</td><td rowspan="0">200</td><td>300</td></tr>
<tr><td>Extra</td><td>x</td></tr>
</table>

<table><tr><td>outer<table><tr><td>inner a</td><td>inner b</td></tr></table></td>
<td>right of outer</td></tr><tr><td>below outer</td><td>corner</td></tr></table>

| Animal | Legs |
| Cat | 4 |
| Bird | 2 |
"""

TYPES_TESTS = {
    "text.jsonl": [
        _t("report.pdf", "p_exact", "present", text="The quick brown fox jumps over the lazy dog."),
        _t("report.pdf", "p_quotes", "present",
           text='It said "hello" - and then it left. Next line'),
        _t("report.pdf", "p_micro", "present", text="measured in μm and 5-10 units"),
        _t("report.pdf", "p_fuzzy", "present", text="The quikc brown fox jumps", max_diffs=2),
        _t("report.pdf", "p_fuzzy_fail", "present", text="The quikc brwn fox jumps", max_diffs=1),
        _t("report.pdf", "p_case", "present", text="ANNUAL REPORT 2024", case_sensitive=False),
        _t("report.pdf", "p_case_fail", "present", text="ANNUAL REPORT 2024"),
        _t("report.pdf", "p_first", "present", text="Annual Report", first_n=30),
        _t("report.pdf", "p_first_fail", "present", text="strong text", first_n=60),
        _t("report.pdf", "p_last", "present", text="An HTML Heading", last_n=60),
        _t("report.pdf", "p_both", "present", text="Annual Report", first_n=20, last_n=20),
        _t("report.pdf", "a_absent", "absent", text="Confidential draft"),
        _t("report.pdf", "a_absent_fail", "absent", text="quick brown fox"),
        _t("report.pdf", "a_absent_case", "absent", text="annual report", case_sensitive=False),
        _t("report.pdf", "a_absent_fuzzy", "absent", text="quack brown fix", max_diffs=2),
        _t("letter.pdf", "l_present", "present", text="The bridge is old and unsafe."),
        _t("letter.pdf", "l_last", "absent", text="Dear Sir", last_n=40),
        _t("letter.pdf", "l_step", "present", text="repairs begin before the wintr", max_diffs=1),
        _t("letter.pdf", "l_step3", "present", text="the wimter seeson", max_diffs=2),
    ],
    "order.jsonl": [
        _t("report.pdf", "o_exact", "order", before="Annual Report", after="Results"),
        _t("report.pdf", "o_reversed", "order", before="Results", after="Annual Report"),
        _t("report.pdf", "o_fuzzy", "order", before="quick brown fax", after="lazy dgo",
           max_diffs=1),
        _t("report.pdf", "o_missing", "order", before="Nonexistent words", after="Results"),
        _t("letter.pdf", "o_short", "order", before="Sir", after="bridge", max_diffs=1),
        _t("letter.pdf", "o_same", "order", before="bridge", after="bridge"),
        _t("letter.pdf", "o_repeat", "order", before="The bridge", after="the bridge"),
        _t("letter.pdf", "o_lp", "order", before="Yoors", after="Comittee", max_diffs=2),
        _t("letter.pdf", "o_long", "order",
           before="We request that repairs begin before the winter season",
           after="Yours faithfully, The Committee", max_diffs=3),
        _t("letter.pdf", "o_long_rev", "order", before="Yours faithfully, The Committee",
           after="I write to you concerning the matter", max_diffs=4),
    ],
    "tables.jsonl": [
        _t("report.pdf", "t_md_right", "table", cell="North", right="10"),
        _t("report.pdf", "t_md_up", "table", cell="7", up="10", top_heading="Q1"),
        _t("report.pdf", "t_md_left_heading", "table", cell="9", left_heading="South"),
        _t("report.pdf", "t_md_fail", "table", cell="North", right="12"),
        _t("report.pdf", "t_html_colspan", "table", cell="90", top_heading="Scores"),
        _t("report.pdf", "t_html_colspan_down", "table", cell="Scores", down="85"),
        _t("report.pdf", "t_html_rowspan", "table", cell="70", left="Alice"),
        _t("report.pdf", "t_html_br", "table", cell="Bob Jr", right="60"),
        _t("report.pdf", "t_html_entity", "table", cell="65&5", up="85"),
        _t("report.pdf", "t_html_comment", "table", cell="55", left="60"),
        _t("report.pdf", "t_html_thead", "table", cell="60", top_heading="Scores"),
        _t("report.pdf", "t_ignore_md", "table", cell="North", right="10",
           ignore_markdown_tables=True),
        _t("report.pdf", "t_fuzzy_cell", "table", cell="Alise", right="90", max_diffs=1),
        _t("report.pdf", "t_floor", "table", cell="Sooth", max_diffs=4),
        _t("tables.pdf", "t_unclosed", "table", cell="900", left="800", up="1,200"),
        _t("tables.pdf", "t_rowspan0", "table", cell="200", left="Net", down="x"),
        _t("tables.pdf", "t_rowspan0_b", "table", cell="x", left="Extra"),
        _t("tables.pdf", "t_left_heading", "table", cell="1,000", left_heading="Revenue",
           top_heading="2019"),
        _t("tables.pdf", "t_empty_heading", "table", cell="Revenue", top_heading="x"),
        _t("tables.pdf", "t_nested_inner", "table", cell="inner a", right="inner b"),
        _t("tables.pdf", "t_nested_outer", "table", cell="right of outer", down="corner"),
        _t("tables.pdf", "t_nested_text", "table", cell="outerinner ainner b",
           right="right of outer"),
        _t("tables.pdf", "t_md_noseparator", "table", cell="Cat", right="4", up="Animal"),
        _t("tables.pdf", "t_none", "table", cell="Zebra"),
    ],
    "misc.jsonl": [
        _t("report.pdf", "f_heading", "format", text="Annual Report 2024", format="heading"),
        _t("report.pdf", "f_heading_html", "format", text="An HTML Heading", format="heading"),
        _t("report.pdf", "f_bold", "format", text="quick", format="bold"),
        _t("report.pdf", "f_bold_us", "format", text="underlined bold", format="bold"),
        _t("report.pdf", "f_strong", "format", text="strong text", format="bold"),
        _t("report.pdf", "f_italic", "format", text="Closing italic words", format="italic"),
        _t("report.pdf", "f_italic_us", "format", text="lazy", format="italic"),
        _t("report.pdf", "f_italic_fail", "format", text="quick", format="italic"),
        _t("report.pdf", "f_case", "format", text="RESULTS", format="heading",
           case_sensitive=False),
        _t("report.pdf", "fn_md", "footnote", marker="1", appears_before_marker="reference here"),
        _t("report.pdf", "fn_sup", "footnote", marker="2", appears_before_marker="a superscript",
           appears_after_marker="mark also"),
        _t("report.pdf", "fn_unicode", "footnote", marker="3", appears_before_marker="also"),
        _t("report.pdf", "fn_missing", "footnote", marker="4"),
        _t("report.pdf", "fn_after_fail", "footnote", marker="1",
           appears_after_marker="something else entirely"),
        _t("report.pdf", "fn_fuzzy", "footnote", marker="2", appears_before_marker="a supersript",
           max_diffs=1),
        _t("letter.pdf", "b_custom", "baseline", max_repeats=3),
    ],
}

# candidates of "types": one file per page, named as olmOCR-bench names them
_TYPES_FILES = {"report.pdf": REPORT, "letter.pdf": LETTER, "tables.pdf": TABLES}


def _files(texts: dict[str, str], repeat: int = 1) -> dict[str, str | bytes]:
    return {f"{Path(pdf).stem}_pg1_repeat{repeat}.md": text for pdf, text in texts.items()}


def _edit(**changes: str) -> dict[str, str | bytes]:
    texts = dict(_TYPES_FILES)
    texts.update(changes)
    return _files(texts)


TYPES_CANDIDATES: dict[str, dict[str, str | bytes]] = {
    "good": _files(_TYPES_FILES),
    "lowercase": _files({pdf: text.lower() for pdf, text in _TYPES_FILES.items()}),
    "crlf": _files({pdf: text.replace("\n", "\r\n") for pdf, text in _TYPES_FILES.items()}),
    "repetitive": _edit(**{"letter.pdf": LETTER + " again" * 40}),
    "repetitive_char": _edit(**{"letter.pdf": LETTER + "=" * 31}),
    "repetitive_30": _edit(**{"letter.pdf": LETTER + "=" * 29}),
    "cjk": _edit(**{"letter.pdf": LETTER + "\n中文\n"}),
    "emoji": _edit(**{"letter.pdf": LETTER + " \U0001f600"}),
    "blank_letter": _edit(**{"letter.pdf": "   \n\n"}),
    "reordered": _edit(**{"letter.pdf": "\n\n".join(reversed(LETTER.split("\n\n")))}),
    "tables_only_md": _edit(**{"report.pdf": REPORT.split("<table>")[0]}),
    "markup_soup": _edit(**{"report.pdf": REPORT.replace("**quick**", "<b>quick</b>")
                            .replace("_lazy_", "<i>lazy</i>").replace("# Annual", "#Annual")}),
    "empty_files": _files(dict.fromkeys(_TYPES_FILES, "")),
}

# --- case "repeats": several repeats, the majority rule, the _pg filter, subfolders, 2 pages ---

REPEATS_TESTS = {
    "r.jsonl": [
        _t("alpha.pdf", "al_1", "present", text="alpha page one"),
        _t("alpha.pdf", "al_2", "absent", text="forbidden"),
        _t("alpha.pdf", "al_p2", "present", page=2, text="alpha page two"),
        _t("beta_pg1.pdf", "be_1", "present", text="beta content"),
        _t("sub/gamma.pdf", "ga_1", "present", text="gamma content"),
        _t("sub/gamma.pdf", "ga_b", "baseline", max_length=5),
        _t("delta_pg2.pdf", "de_1", "present", text="delta page one"),
        _t("delta_pg2.pdf", "de_2", "present", page=2, text="delta page one"),
    ],
}


def _repeats(alpha: list[tuple[str, str]], beta: list[str], gamma: list[str]) -> dict[
        str, str | bytes]:  # fmt: skip
    files: dict[str, str | bytes] = {}
    for r, (one, two) in enumerate(alpha, start=1):
        files[f"alpha_pg1_repeat{r}.md"] = one
        files[f"alpha_pg2_repeat{r}.md"] = two
    for r, text in enumerate(beta, start=1):
        files[f"beta_pg1_pg1_repeat{r}.md"] = text
    for r, text in enumerate(gamma, start=1):
        files[f"sub/gamma_pg1_repeat{r}.md"] = text
    # only page 1 of delta_pg2.pdf: the harness's "_pg2_" filter also takes it for page 2
    files["delta_pg2_pg1_repeat1.md"] = "delta page one"
    return files


_A1, _A2 = "alpha page one", "alpha page two"
REPEATS_CANDIDATES: dict[str, dict[str, str | bytes]] = {
    "three_two_pass": _repeats([(_A1, _A2), (_A1, "nothing"), ("x forbidden", _A2)],
                               ["beta content"], ["tiny"]),
    "two_one_pass": _repeats([(_A1, _A2), ("nope", "nope")], ["beta content", "no"],
                             ["gamma content"]),
    "missing_pdf": _repeats([(_A1, _A2)], [], ["gamma content"]),
    "missing_page": {"alpha_pg1_repeat1.md": _A1, "beta_pg1_pg1_repeat1.md": "beta content",
                     "sub/gamma_pg1_repeat1.md": "gamma", "delta_pg2_pg1_repeat1.md": "d"},
    "unreadable_repeat": {**_repeats([(_A1, _A2)], ["beta content"], ["gamma"]),
                          "alpha_pg1_repeat2.md": b"alpha page one \xff\xfe"},
    "gaps_in_numbering": {"alpha_pg1_repeat3.md": _A1, "alpha_pg2_repeat7.md": _A2,
                          "beta_pg1_pg1_repeat2.md": "beta content",
                          "sub/gamma_pg1_repeat1.md": "g", "notes.txt": "ignored",
                          "delta_pg2_pg1_repeat4.md": "delta page one",
                          "alpha_pg1_repeat1.txt": "ignored"},
}


# --- case "math": formulas as KaTeX renders them (the reference runs Chromium) ---

MATH_TESTS = {
    "math.jsonl": [
        _t("eq.pdf", "m_exact", "math", math="E = mc^2"),
        _t("eq.pdf", "m_spacing", "math", math="a^2 + b^2 = c^2"),
        _t("eq.pdf", "m_frac", "math", math="\\frac{a}{b}"),
        _t("eq.pdf", "m_sub", "math", math="x_{i}^{2}"),
        _t("eq.pdf", "m_missing", "math", math="\\int_0^1 x\\,dx"),
        _t("eq.pdf", "m_sum", "math", math="\\sum_{i=1}^{n} i"),
        _t("eq.pdf", "m_dollar_ignored", "math", math="\\alpha + \\beta",
           ignore_dollar_delimited=True),
        _t("eq.pdf", "m_inner", "math", math="\\sqrt{x}"),
        _t("eq.pdf", "m_present", "present", text="Some text between formulas"),
    ],
}

_MATH_PAGE = """Some text between formulas.

$E = mc^2$ and $$a^{2}+b^{2}=c^{2}$$

\\[ \\frac{a}{b} \\] and \\(x_i^2\\) and $\\alpha + \\beta$.

$$\\sum_{j=1}^{n} j$$ then $$\\frac{1}{\\sqrt{x}+1}$$
"""

MATH_CANDIDATES: dict[str, dict[str, str | bytes]] = {
    "good": {"eq_pg1_repeat1.md": _MATH_PAGE},
    "plain_text": {"eq_pg1_repeat1.md": "Some text between formulas. E = mc2, a/b, x_i^2."},
    "broken": {"eq_pg1_repeat1.md": "Some text between formulas. $\\frac{a}{$ and "
                                     "$$a^2 + b^2 = c^3$$ \\(\\alpha+\\gamma\\)"},
}


CASES: dict[str, dict[str, Any]] = {
    "types": {
        "tests": TYPES_TESTS,
        "pdfs": {"report.pdf": 1, "letter.pdf": 1, "tables.pdf": 1},
        "candidates": TYPES_CANDIDATES,
    },
    "math": {
        "tests": MATH_TESTS,
        "pdfs": {"eq.pdf": 1},
        "candidates": MATH_CANDIDATES,
    },
    "repeats": {
        "tests": REPEATS_TESTS,
        "pdfs": {"alpha.pdf": 2, "beta_pg1.pdf": 1, "sub/gamma.pdf": 1, "delta_pg2.pdf": 2},
        "candidates": REPEATS_CANDIDATES,
    },
}


def write_cases(root: str | Path) -> list[tuple[str, str]]:
    """Write every case under ``root``; returns the (case, candidate) pairs."""
    root = Path(root)
    pairs = []
    for case, spec in CASES.items():
        folder = root / case
        for name, tests in spec["tests"].items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(json.dumps(t) + "\n" for t in tests), encoding="utf-8")
        for pdf, pages in spec["pdfs"].items():
            path = folder / "pdfs" / pdf
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(pdf_bytes(pages))
        for candidate, files in spec["candidates"].items():
            for name, content in files.items():
                path = folder / candidate / name
                path.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(content, bytes):
                    path.write_bytes(content)
                else:
                    path.write_bytes(content.encode("utf-8"))
            pairs.append((case, candidate))
    return pairs
