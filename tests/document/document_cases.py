"""The parity cases of the document kind: truth pages and prediction sets in OmniDocBench's
format, all written for parsescore (no page of OmniDocBench's own demo data is used).

``write_cases(root)`` writes ``root/truth.json`` (OmniDocBench v1.5's page list) and one folder
of predictions per case under ``root/pred/<case>/``. ``tests/document/record_goldens.py`` runs
OmniDocBench's own evaluation on each case and keeps its outputs in ``tests/document/golden/``;
the tests compare the ``omnidocbench`` profile with them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["CASES", "PAGES", "truth_pages", "write_cases"]

TEXT_ATTR = {"text_language": "text_english", "text_background": "white", "text_rotate": "normal"}
ZH_ATTR = {
    "text_language": "text_simplified_chinese",
    "text_background": "white",
    "text_rotate": "normal",
}
TABLE_ATTR = {
    "table_layout": "horizontal",
    "with_span": True,
    "line": "full_line",
    "language": "table_en",
    "include_equation": False,
    "include_photo": False,
    "include_background": False,
    "with_structured_text": False,
}


def _block(category: str, order: int | None, anno: int, **fields: Any) -> dict[str, Any]:
    block: dict[str, Any] = {
        "category_type": category,
        "poly": [0, 0, 10, 0, 10, 10, 0, 10],
        "ignore": False,
        "order": order,
        "anno_id": anno,
    }
    block.update(fields)
    if category in ("equation_isolated",) and "attribute" not in block:
        block["attribute"] = {"formula_type": "print"}
    return block


def _page(
    image: str, attribute: dict[str, Any], blocks: list[dict[str, Any]], relations: list[Any]
) -> dict[str, Any]:
    return {
        "layout_dets": blocks,
        "extra": {"relation": relations},
        "page_info": {
            "page_attribute": attribute,
            "page_no": 0,
            "height": 1000,
            "width": 800,
            "image_path": image,
        },
    }


def _truncated(source: int, target: int) -> dict[str, Any]:
    return {"source_anno_id": source, "target_anno_id": target, "relation_type": "truncated"}


TABLE_A = (
    '<table><tr><td rowspan="2">Model</td><td colspan="2">Score</td></tr>'
    "<tr><td>Text</td><td>Table</td></tr>"
    "<tr><td>Alpha</td><td>0.91</td><td>0.84</td></tr>"
    "<tr><td>Beta</td><td>0.87</td><td>0.79</td></tr></table>"
)
TABLE_A_LATEX = (
    "\\begin{tabular}{|l|c|c|}\\hline\n\\multirow{2}{*}{Model} & \\multicolumn{2}{c|}{Score} "
    "\\\\\n & Text & Table \\\\ \\hline\nAlpha & 0.91 & 0.84 \\\\\nBeta & 0.87 & 0.79 \\\\ "
    "\\hline\n\\end{tabular}"
)
TABLE_B = (
    "<table><thead><tr><th>Year</th><th>Revenue</th><th>Growth</th></tr></thead>"
    "<tbody><tr><td>2021</td><td>120</td><td>4%</td></tr>"
    "<tr><td>2022</td><td>138</td><td>15%</td></tr>"
    "<tr><td>2023</td><td>151</td><td>9.4%</td></tr></tbody></table>"
)
TABLE_B_LATEX = (
    "\\begin{tabular}{lll}\n\\toprule\nYear & Revenue & Growth \\\\\n\\midrule\n"
    "2021 & 120 & 4\\% \\\\\n2022 & 138 & 15\\% \\\\\n2023 & 151 & 9.4\\% \\\\\n"
    "\\bottomrule\n\\end{tabular}"
)
TABLE_B_MD = (
    "| Year | Revenue | Growth |\n|---|---|---|\n| 2021 | 120 | 4% |\n| 2022 | 138 | 15% |\n"
    "| 2023 | 151 | 9.4% |"
)
TABLE_A_MD = (
    "| Model | Score | |\n| --- | --- | --- |\n| | Text | Table |\n| Alpha | 0.91 | 0.84 |\n"
    "| Beta | 0.87 | 0.79 |"
)


def truth_pages() -> list[dict[str, Any]]:
    """Seven pages written for these tests, covering the categories OmniDocBench reads."""
    report = _page(
        "report_2023.pdf_3.jpg",
        {
            "data_source": "research_report",
            "language": "english",
            "layout": "single_column",
            "special_issue": ["table_span"],
        },
        [
            _block("header", None, 0, text="Annual report 2023", attribute=TEXT_ATTR),
            _block("title", 1, 1, text="Results of the year", attribute=TEXT_ATTR),
            _block(
                "text_block",
                2,
                2,
                text="Revenue grew for the third year in a row, driven by the new product line "
                "and by a wider reach in export markets.",
                attribute=TEXT_ATTR,
            ),
            _block("table_caption", 3, 3, text="Table 1: Scores by model", attribute=TEXT_ATTR),
            _block("table", 4, 4, html=TABLE_A, latex=TABLE_A_LATEX, attribute=TABLE_ATTR),
            _block(
                "text_block",
                5,
                5,
                text="The table shows that Alpha leads on both tasks, with a margin of $4\\%$ on "
                "text and $5\\%$ on tables.",
                attribute=TEXT_ATTR,
            ),
            _block("page_number", None, 6, text="3", attribute=TEXT_ATTR),
        ],
        [],
    )
    paper = _page(
        "paper_physics_7.png",
        {
            "data_source": "academic_literature",
            "language": "english",
            "layout": "double_column",
            "special_issue": [],
        },
        [
            _block("title", 1, 0, text="2 Method", attribute=TEXT_ATTR),
            _block(
                "text_block",
                2,
                1,
                text="We model the field $E$ with the usual wave equation and solve it on a "
                "regular grid of spacing $h$.",
                attribute=TEXT_ATTR,
            ),
            _block(
                "equation_isolated",
                3,
                2,
                latex="$$\n\\nabla^{2} E - \\frac{1}{c^{2}} "
                "\\frac{\\partial^{2} E}{\\partial t^{2}} = 0 \\tag{1}\n$$",
            ),
            _block("equation_caption", 4, 3, text="(1)", attribute=TEXT_ATTR),
            _block(
                "text_block",
                5,
                4,
                text="The discrete operator is second order accurate, so the error falls as the "
                "square of the spacing when the grid is refined.",
                attribute=TEXT_ATTR,
            ),
            _block(
                "equation_isolated",
                6,
                5,
                latex="$$\n\\begin{array}{l} u_{t} = a u_{xx} \\\\ u(0,t) = 0 \\end{array}\n$$",
            ),
            _block(
                "text_block",
                7,
                6,
                text="Boundary values are fixed at zero on both ends of the interval",
                attribute=TEXT_ATTR,
            ),
            _block(
                "text_block",
                8,
                7,
                text="and the initial profile is a single smooth bump.",
                attribute=TEXT_ATTR,
            ),
            _block("footer", None, 8, text="Journal of Examples, Vol. 12", attribute=TEXT_ATTR),
        ],
        [_truncated(6, 7)],
    )
    news = _page(
        "news_city_12.jpg",
        {
            "data_source": "newspaper",
            "language": "english",
            "layout": "three_column",
            "special_issue": [],
        },
        [
            _block("title", 1, 0, text="City opens new library", attribute=TEXT_ATTR),
            _block(
                "text_block",
                2,
                1,
                text="The new central library opened on Monday after four years of",
                attribute=TEXT_ATTR,
            ),
            _block(
                "text_block",
                3,
                2,
                text=" building work, with room for more than two hundred thousand books",
                attribute=TEXT_ATTR,
            ),
            _block(
                "text_block",
                4,
                3,
                text=" and a reading hall open late every evening.",
                attribute=TEXT_ATTR,
            ),
            _block("figure", 5, 4),
            _block(
                "figure_caption", 6, 5, text="The reading hall on opening day.", attribute=TEXT_ATTR
            ),
            _block(
                "text_block",
                7,
                6,
                text="Visitors queued from early morning; the mayor "
                "thanked the builders and the staff.",
                attribute=TEXT_ATTR,
            ),
            _block("abandon", None, 7, text="ADVERTISEMENT"),
        ],
        [_truncated(1, 2), _truncated(2, 3)],
    )
    zh = _page(
        "notes_zh_5.jpg",
        {
            "data_source": "note",
            "language": "simplified_chinese",
            "layout": "single_column",
            "special_issue": [],
        },
        [
            _block("title", 1, 0, text="第二章 函数", attribute=ZH_ATTR),
            _block(
                "text_block",
                2,
                1,
                text="函数是数学中的基本概念，表示两个集合之间的对应关系。",
                attribute=ZH_ATTR,
            ),
            _block("equation_isolated", 3, 2, latex="\\[ f(x) = x^{2} + 1 \\]"),
            _block("text_block", 3, 3, text="当 $x=0$ 时，函数取得最小值 1。", attribute=ZH_ATTR),
            _block(
                "table",
                4,
                4,
                html=TABLE_B,
                latex=TABLE_B_LATEX,
                attribute={
                    **TABLE_ATTR,
                    "language": "table_simplified_chinese",
                    "with_span": False,
                },
            ),
            _block("page_footnote", 5, 5, text="注：数据来自课堂练习。", attribute=ZH_ATTR),
        ],
        [],
    )
    slides = _page(
        "slides_agile.pdf_2.jpg",
        {
            "data_source": "PPT2PDF",
            "language": "english",
            "layout": "single_column",
            "special_issue": ["colorful_backgroud"],
        },
        [
            _block("title", 1, 0, text="Team practices", attribute=TEXT_ATTR),
            _block(
                "text_block",
                2,
                1,
                text="- Short iterations with a demo at the end",
                attribute=TEXT_ATTR,
            ),
            _block(
                "text_block",
                3,
                2,
                text="- One shared backlog, ordered by value",
                attribute=TEXT_ATTR,
            ),
            _block(
                "text_block",
                4,
                3,
                text="- Retrospectives that change how we work",
                attribute=TEXT_ATTR,
            ),
            _block(
                "code_txt", 5, 4, text="for task in backlog:\n    plan(task)", attribute=TEXT_ATTR
            ),
        ],
        [],
    )
    tables_only = _page(
        "book_tables_40.jpg",
        {
            "data_source": "book",
            "language": "english",
            "layout": "single_column",
            "special_issue": ["table_horizontal"],
        },
        [
            _block("table", 1, 0, html=TABLE_B, latex=TABLE_B_LATEX, attribute=TABLE_ATTR),
            _block("table_footnote", 2, 1, text="Source: company filings.", attribute=TEXT_ATTR),
            _block("table", 3, 2, html=TABLE_A, latex=TABLE_A_LATEX, attribute=TABLE_ATTR),
        ],
        [],
    )
    exam = _page(
        "exam_math_1.jpg",
        {
            "data_source": "exam_paper",
            "language": "english",
            "layout": "single_column",
            "special_issue": [],
        },
        [
            _block(
                "text_block", 1, 0, text="1. Solve for $x$: $2x + 3 = 11$.", attribute=TEXT_ATTR
            ),
            _block("equation_isolated", 2, 1, latex="$$\nx = \\frac{11 - 3}{2} = 4\n$$"),
            _block(
                "text_block",
                3,
                2,
                text="2. Show that the sum of two even numbers is even.",
                attribute=TEXT_ATTR,
            ),
            _block(
                "reference", 4, 3, text="[1] A. Author, Numbers for All, 2010.", attribute=TEXT_ATTR
            ),
        ],
        [],
    )
    return [report, paper, news, zh, slides, tables_only, exam]


def _stem(page: dict[str, Any]) -> str:
    return str(page["page_info"]["image_path"])[:-4]


def _table_md(html: str) -> str:
    return TABLE_A_MD if html == TABLE_A else TABLE_B_MD


def _table_latex(html: str) -> str:
    return TABLE_A_LATEX if html == TABLE_A else TABLE_B_LATEX


def render(page: dict[str, Any], table: str = "html", joiner: str = "\n\n") -> list[str]:
    """The page as a model would write it: one Markdown chunk per block in reading order."""
    blocks = sorted(
        (b for b in page["layout_dets"] if b.get("order") is not None),
        key=lambda b: b["order"],
    )
    truncated = {
        r["target_anno_id"] for r in page["extra"]["relation"] if r["relation_type"] == "truncated"
    }
    chunks: list[str] = []
    for block in blocks:
        category = block["category_type"]
        if category in ("figure", "abandon"):
            continue
        if category == "table":
            html = block["html"]
            chunks.append(
                html
                if table == "html"
                else _table_md(html)
                if table == "md"
                else _table_latex(html)
            )
        elif category == "equation_isolated":
            chunks.append(block["latex"])
        elif category == "title":
            chunks.append("# " + block["text"])
        elif category == "code_txt":
            chunks.append("```python\n" + block["text"] + "\n```")
        elif block["anno_id"] in truncated and chunks:
            chunks[-1] = chunks[-1] + block["text"]
        else:
            chunks.append(block["text"])
    del joiner
    return chunks


def _join(chunks: list[str]) -> str:
    return "\n\n".join(chunks) + "\n"


def _noisy(text: str, rng: random.Random) -> str:
    out = []
    for char in text:
        roll = rng.random()
        if char.isalpha() and roll < 0.06:
            out.append(rng.choice("abcdefghijklmnopqrstuvwxyz"))
        elif char.isalpha() and roll < 0.09:
            continue
        else:
            out.append(char)
    return "".join(out)


Files = dict[str, str]


def _each(pages: list[dict[str, Any]], make: Callable[[int, dict[str, Any]], str | None]) -> Files:
    files: Files = {}
    for index, page in enumerate(pages):
        text = make(index, page)
        if text is not None:
            files[_stem(page) + ".md"] = text
    return files


def case_files(pages: list[dict[str, Any]]) -> dict[str, Files]:
    """Prediction file name → content, per case."""
    cases: dict[str, Files] = {}
    cases["perfect"] = _each(pages, lambda i, p: _join(render(p)))
    cases["tables_markdown"] = _each(pages, lambda i, p: _join(render(p, "md")))
    cases["tables_latex"] = _each(pages, lambda i, p: _join(render(p, "latex")))

    def dropped(i: int, p: dict[str, Any]) -> str:
        chunks = render(p)
        return _join([c for k, c in enumerate(chunks) if k % 3 != 1])

    cases["dropped"] = _each(pages, dropped)

    def invented(i: int, p: dict[str, Any]) -> str:
        chunks = render(p)
        chunks.insert(1, "This paragraph was never on the page and the model made it up.")
        chunks.append("Another invented closing remark about nothing in particular.")
        return _join(chunks)

    cases["invented"] = _each(pages, invented)

    def shuffled(i: int, p: dict[str, Any]) -> str:
        chunks = render(p)
        random.Random(i).shuffle(chunks)
        return _join(chunks)

    cases["shuffled"] = _each(pages, shuffled)

    def noisy(i: int, p: dict[str, Any]) -> str:
        rng = random.Random(100 + i)
        return _join(
            [c if c.startswith(("<table", "$$", "\\[")) else _noisy(c, rng) for c in render(p)]
        )

    cases["noisy"] = _each(pages, noisy)

    def missing_empty(i: int, p: dict[str, Any]) -> str | None:
        if i in (1, 4):
            return None  # no file: OmniDocBench skips the page
        if i == 2:
            return ""  # an empty file: everything missed
        if i == 5:
            return "\n\n   \n"
        return _join(render(p))

    cases["missing_empty"] = _each(pages, missing_empty)

    alt: Files = {}
    for i, page in enumerate(pages):
        image = str(page["page_info"]["image_path"])
        text = _join(render(page))
        if i % 3 == 0:
            alt[image + ".md"] = text  # MinerU's <image name>.md
        elif i % 3 == 1:
            alt[image[:-4].replace(".pdf", "") + ".mmd"] = text  # nougat
        else:
            alt[image[:-4].replace(".pdf", "") + ".md"] = text  # marker
    cases["alternative_names"] = alt

    def markup(i: int, p: dict[str, Any]) -> str:
        chunks = render(p)
        out = []
        for k, chunk in enumerate(chunks):
            if chunk.startswith("$$"):
                body = chunk.strip("$\n")
                chunk = "\\[\n" + body + "\n\\]" if k % 2 else "$$" + body + "$$"
            elif not chunk.startswith(("<table", "#", "```", "|", "\\begin")):
                chunk = chunk.replace("$", "\\(", 1).replace("$", "\\)", 1) if k % 2 else chunk
                if k == 1:
                    chunk = "**" + chunk + "**"
            out.append(chunk)
        out.insert(1, f"![figure](images/fig_{i}.png)")
        out.insert(2, "* * *")
        body = _join(out)
        if i % 2:
            body = "```markdown\n" + body + "```\n"
        else:
            body = "<html><body>\n" + body + "</body></html>\n"
        return body

    cases["model_markup"] = _each(pages, markup)

    def single_newlines(i: int, p: dict[str, Any]) -> str:
        return "\n".join(render(p)) + "\n"

    cases["single_newlines"] = _each(pages, single_newlines)
    return cases


PAGES = truth_pages()
CASES = case_files(PAGES)


def write_cases(root: Path) -> dict[str, Path]:
    """Write truth.json and every case's prediction folder; return case → folder."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "truth.json").write_text(
        json.dumps(PAGES, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    folders = {}
    for case, files in CASES.items():
        folder = root / "pred" / case
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        folders[case] = folder
    return folders
