"""``math`` tests: olmOCR-bench renders the test's formula and each formula of the page with
KaTeX (0.16.21) in Chromium and passes the test when one rendering's MathML contains the
reference's, or when the reference's characters can be placed on the candidate's with the same
neighbours (a comparison of the laid-out boxes).

Here KaTeX runs in node (the npm package ``katex``, in the folder ``$PARSESCORE_KATEX_DIR``,
made with ``npm install --prefix DIR katex@0.16.21``): the MathML comparison and the first step of
the layout comparison (every character of the reference must appear in the candidate's
rendering) need no browser, so a test is decided here when a formula passes the first or when
every formula fails the second. Otherwise the layout decides, which needs a browser: the test is
reported as not run, never as passed or failed. Without node or the package, every math test is
not run.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
import threading
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import IO, Any

from rapidfuzz import fuzz

from parsescore.document.olmocr.checks import Check, CheckError, Page, Verdict

__all__ = ["KATEX_DIR_ENV", "NeedsLayout", "Rendering", "renderer_available", "run_math"]

#: the folder holding node_modules/katex
KATEX_DIR_ENV = "PARSESCORE_KATEX_DIR"
_DELIMITED = [re.compile(r"\\\((.+?)\\\)", re.DOTALL), re.compile(r"\\\[(.+?)\\\]", re.DOTALL)]
_DOLLARS = [re.compile(r"\$\$(.+?)\$\$", re.DOTALL), re.compile(r"\$(.+?)\$", re.DOTALL)]
_SPACES = re.compile(r"[\s\u200a-\u200d\u2060\ufeff]+")
_MATH = re.compile(r"<math[\s>].*?</math>", re.DOTALL)
#: what BeautifulSoup's XML builder prints for a KaTeX error message (no element in it)
_ERROR_INNER = '<?xml version="1.0" encoding="utf-8"?>\n'


class NeedsLayout(Exception):
    """The verdict depends on KaTeX's laid-out boxes: a browser is needed. ``pending`` is
    (the test's formula, the page's formulas to lay out against it) when one can be asked."""

    def __init__(self, pending: tuple[str, list[str]] | None = None) -> None:
        super().__init__("needs KaTeX's layout")
        self.pending = pending


class Rendering:
    """A formula as KaTeX renders it: the normalised MathML inside ``<semantics>`` (the
    annotation left out), and the characters of its visible leaf spans (each view worked out
    from the HTML when first asked for: a test often decides on the first)."""

    def __init__(self, html: str | None, error: str | None) -> None:
        self.error = error
        self.html = html

    @cached_property
    def inner(self) -> str:
        if self.html is None:
            return _SPACES.sub("", _ERROR_INNER)
        return _SPACES.sub("", _mathml_inner(self.html))

    @cached_property
    def chars(self) -> list[str]:
        if self.html is None:
            return []
        return [c for text in _leaf_span_texts(self.html) for c in _SPACES.sub("", text)]


def _serialise(element: Any) -> str:
    """An element as BeautifulSoup's XML output writes it (double quotes unless the value holds
    one, ``<x/>`` when empty, ``&``, ``<`` and ``>`` escaped)."""
    from xml.sax.saxutils import escape

    name = element.tag.split("}", 1)[-1]
    attrs = []
    for key, value in element.attrib.items():
        value = escape(value)
        if '"' in value:
            quoted = f"'{value}'" if "'" not in value else '"' + value.replace('"', "&quot;") + '"'
        else:
            quoted = f'"{value}"'
        attrs.append(f" {key.split('}', 1)[-1]}={quoted}")
    body = escape(element.text or "") + "".join(
        _serialise(child) + escape(child.tail or "") for child in element
    )
    if not body:
        return f"<{name}{''.join(attrs)}/>"
    return f"<{name}{''.join(attrs)}>{body}</{name}>"


def _mathml_inner(html: str) -> str:
    from lxml import etree

    found = _MATH.search(html)
    if found is None:
        return ""
    root = etree.fromstring(found.group(0).encode("utf-8"))
    semantics = next((e for e in root.iter() if str(e.tag).endswith("semantics")), None)
    if semantics is None:
        return str(etree.tostring(root, encoding="unicode"))
    parts = [escape_text(semantics.text)]
    for child in semantics:
        if not str(child.tag).endswith("annotation"):
            parts.append(_serialise(child))
        parts.append(escape_text(child.tail))
    return "".join(parts)


def escape_text(text: str | None) -> str:
    from xml.sax.saxutils import escape

    return escape(text or "")


def _leaf_span_texts(html: str) -> list[str]:
    """The texts of the ``<span>`` elements without element children (JavaScript's trim)."""
    from lxml import html as lxml_html

    tree = lxml_html.fragment_fromstring(html, create_parent="div")
    texts = []
    for span in tree.iter("span"):
        if len(span) == 0:
            text = (span.text or "").strip(" \t\n\r\f\v\u00a0\ufeff\u2028\u2029\u1680\u2000"
                                           "\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                                           "\u2009\u200a\u202f\u205f\u3000")  # fmt: skip
            if text and re.search(r"\S", span.text or ""):
                texts.append(text)
    return texts


class _Node:
    """One node process rendering formulas, shared by the tests of this process."""

    def __init__(self, folder: str) -> None:
        script = resources.files("parsescore.document.olmocr").joinpath("katex_render.js")
        self.process = subprocess.Popen(
            ["node", str(script), folder], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, encoding="utf-8",
        )  # fmt: skip
        self.lock = threading.Lock()
        atexit.register(self.close)

    def close(self) -> None:
        """Let node finish and reap it (its CPU time then counts as this process's child's)."""
        stdin = self.process.stdin
        if stdin is not None and not stdin.closed:
            stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def render(self, formulas: list[str]) -> list[dict[str, Any]]:
        """The formulas rendered in one exchange with node (one line each way)."""
        with self.lock:
            stdin: IO[str] = self.process.stdin  # type: ignore[assignment]
            stdout: IO[str] = self.process.stdout  # type: ignore[assignment]
            stdin.write(json.dumps(formulas) + "\n")
            stdin.flush()
            line = stdout.readline()
        if not line:
            raise CheckError("the KaTeX node process stopped")
        answers: list[dict[str, Any]] = json.loads(line)
        return answers


def _katex_dir() -> str | None:
    folder = os.environ.get(KATEX_DIR_ENV)
    if not folder:
        return None
    if not (Path(folder) / "node_modules" / "katex" / "package.json").is_file():
        return None
    return folder


def renderer_available() -> bool:
    """Whether node and the katex package (``$PARSESCORE_KATEX_DIR``) are here."""
    return shutil.which("node") is not None and _katex_dir() is not None


@lru_cache(maxsize=1)
def _node() -> _Node:
    folder = _katex_dir()
    if folder is None or shutil.which("node") is None:
        raise CheckError("no KaTeX renderer (node and $PARSESCORE_KATEX_DIR)")
    return _Node(folder)


#: formulas already rendered (a page's formulas are rendered together, see :func:`prerender`)
_RENDERED: dict[str, Rendering] = {}
_RENDERED_MAX = 8192


def render(formula: str) -> Rendering:
    found = _RENDERED.get(formula)
    return _render_all([formula])[0] if found is None else found


def prerender(formulas: list[str]) -> None:
    """Render the formulas not rendered yet, in one exchange with node (a page's math tests
    would otherwise ask for them one at a time, each a round trip)."""
    todo = [f for f in dict.fromkeys(formulas) if f not in _RENDERED]
    if todo:
        _render_all(todo)


def _render_all(formulas: list[str]) -> list[Rendering]:
    answers = _node().render(formulas)
    if len(_RENDERED) + len(formulas) > _RENDERED_MAX:
        _RENDERED.clear()
    found = [Rendering(a.get("html"), a.get("error")) for a in answers]
    _RENDERED.update(zip(formulas, found, strict=True))
    return found


def prerender_page(formulas: list[str], texts: list[str], dollars: list[bool]) -> None:
    """Render at once what a page's math tests may compare: the tests' formulas not found
    verbatim among the page's, and the page's formulas (as each test finds them)."""
    wanted: list[str] = []
    for formula, ignore in zip(formulas, dollars, strict=True):
        for text in texts:
            equations = _equations(text, not ignore)
            if formula not in equations:
                wanted += [formula, *equations]
    prerender(wanted)


def _equations(text: str, dollars: bool) -> list[str]:
    """The page's formulas as olmOCR-bench finds them: ``\\(..\\)``, ``\\[..\\]``, then (unless
    ignored) ``$$..$$`` and ``$..$``, each kind removed before the next is looked for."""
    found: list[str] = []
    for pattern in _DELIMITED + (_DOLLARS if dollars else []):
        found += [e.strip() for e in pattern.findall(text)]
        text = pattern.sub("", text)
    return found


def _compare(reference: Rendering, hypothesis: Rendering) -> bool:
    """True or False where KaTeX's markup decides; NeedsLayout where the boxes would."""
    if reference.inner in hypothesis.inner:
        return True
    if not reference.chars:
        return True
    available = set(hypothesis.chars)
    if any(c not in available for c in reference.chars):
        return False
    raise NeedsLayout


def run_math(check: Check, page: Page, *, batch: bool = False) -> Verdict:
    """olmOCR-bench's math test on one page. Raises NeedsLayout when a browser must decide:
    with its ``pending`` formulas when ``batch`` (the caller lays out every page's pending
    formulas in one browser run: :func:`decide_pending`) or no browser is here."""
    formula: str = check.fields["math"]
    equations = _equations(page.text, not check.get("ignore_dollar_delimited"))
    if any(e == formula for e in equations):
        return Verdict(True, "", (1.0, formula))
    reference = render(formula)
    undecided = []
    for hypothesis in sorted(equations, key=lambda x: -fuzz.ratio(x, formula)):
        try:
            if _compare(reference, render(hypothesis)):
                return Verdict(True, "", (fuzz.ratio(hypothesis, formula) / 100.0, hypothesis))
        except NeedsLayout:
            undecided.append(hypothesis)
    if undecided:
        if browser() is None:
            raise NeedsLayout
        if batch:
            raise NeedsLayout((formula, undecided))
        boxes = layout([formula, *undecided])
        for hypothesis in undecided:
            if same_layout(boxes[formula], boxes[hypothesis]):
                return Verdict(True, "", (fuzz.ratio(hypothesis, formula) / 100.0, hypothesis))
    best = max(equations, key=lambda x: fuzz.ratio(x, formula), default="")
    return Verdict(False, f"no formula renders like {formula[:60]!r}",
                   (fuzz.ratio(best, formula) / 100.0, best))  # fmt: skip


# --- the layout comparison, in Debian's Chromium ---

#: the Chromium to lay formulas out with (default: ``chromium`` on the PATH)
CHROMIUM_ENV = "PARSESCORE_CHROMIUM"
Box = tuple[str, float, float, float, float]


def browser() -> str | None:
    """Debian's Chromium (``$PARSESCORE_CHROMIUM`` or ``chromium`` on the PATH), if here."""
    return os.environ.get(CHROMIUM_ENV) or shutil.which("chromium")


_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>{css}</style>
<style>body {{ margin: 0; background-color: white; color: black; }}
.box {{ display: flex; justify-content: center; align-items: center; width: 800px;
height: 400px; margin: 0; }} .eq {{ padding: 0; font-size: 24px; }}</style>
<script>{js}</script></head><body>{boxes}<pre id="out"></pre><script>
const formulas = {formulas};
const found = [];
formulas.forEach((formula, k) => {{
  const target = document.getElementById("eq" + k);
  try {{ katex.render(formula, target, {{displayMode: true, throwOnError: true}}); }}
  catch (error) {{ found.push(null); return; }}
  const spans = [];
  target.querySelectorAll("span").forEach(span => {{
    if (span.children.length === 0 && /\\S/.test(span.textContent)) {{
      const r = span.getBoundingClientRect();
      spans.push([span.textContent.trim(), r.x, r.y, r.width, r.height]);
    }}
  }});
  found.push(spans);
}});
document.getElementById("out").textContent = JSON.stringify(found);
</script></body></html>"""


_LAYOUTS: dict[str, list[Box] | None] = {}


def layout(formulas: list[str]) -> dict[str, list[Box] | None]:
    """Each formula's visible leaf spans (text, x, y, width, height) as KaTeX lays them out in
    Chromium at olmOCR-bench's settings (display mode, 24px, 800x400 centred box, KaTeX's CSS
    without its web fonts, which olmOCR-bench's page cannot load either); None when KaTeX
    refuses it. One headless Chromium run for the formulas not seen before."""
    import html
    import tempfile

    todo = [f for f in dict.fromkeys(formulas) if f not in _LAYOUTS]
    if todo:
        folder = _katex_dir()
        chromium = browser()
        if folder is None or chromium is None:
            raise NeedsLayout
        dist = Path(folder) / "node_modules" / "katex" / "dist"
        script = (dist / "katex.min.js").read_text(encoding="utf-8")
        page = _PAGE.format(
            css=(dist / "katex.min.css").read_text(encoding="utf-8"),
            js=script.replace("</script", "<\\/script"),
            boxes="".join(f'<div class="box"><div class="eq" id="eq{k}"></div></div>'
                          for k in range(len(todo))),
            formulas=json.dumps(todo).replace("</", "<\\/"),
        )  # fmt: skip
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "formulas.html"
            path.write_text(page, encoding="utf-8")
            done = subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--window-size=800,400", "--dump-dom", path.as_uri()],
                capture_output=True, text=True, timeout=300, check=False,
            )  # fmt: skip
        found = re.search(r'<pre id="out">(.*?)</pre>', done.stdout, re.DOTALL)
        if found is None or not found.group(1):
            raise CheckError(f"Chromium did not lay the formulas out: {done.stderr[-300:]}")
        for formula, spans in zip(todo, json.loads(html.unescape(found.group(1))), strict=True):
            _LAYOUTS[formula] = None if spans is None else [tuple(s) for s in spans]
    return {f: _LAYOUTS[f] for f in formulas}


def decide_pending(pending: list[tuple[str, list[str]]]) -> list[bool]:
    """The layout verdicts of tests left pending by ``run_math(batch=True)``, in one browser
    run: a test passes when one of its formulas is laid out like the reference."""
    boxes = layout([f for formula, hyps in pending for f in (formula, *hyps)])
    return [any(same_layout(boxes[formula], boxes[h]) for h in hyps) for formula, hyps in pending]


def same_layout(reference: list[Box] | None, hypothesis: list[Box] | None) -> bool:
    """olmOCR-bench's span comparison: every character of the reference placed on a distinct
    equal character of the hypothesis whose nearest neighbours up, down, left and right (centres
    within 5 px on the other axis) carry the same characters."""
    ref = _characters(reference or [])
    hyp = _characters(hypothesis or [])
    options = []
    for text, *_ in ref:
        found = [j for j, other in enumerate(hyp) if other[0] == text]
        if not found:
            return False
        options.append(found)
    ref_near, hyp_near = _neighbours(ref), _neighbours(hyp)
    used = [False] * len(hyp)
    placed: dict[int, int] = {}

    def place(i: int) -> bool:
        if i == len(ref):
            return True
        for j in options[i]:
            if used[j]:
                continue
            placed[i] = j
            used[j] = True
            ok = True
            for side in range(4):
                want, have = ref_near[i][side], hyp_near[j][side]
                if want is None:
                    continue
                if have is None:
                    ok = False
                    break
                if want in placed:
                    if placed[want] != have:
                        ok = False
                        break
                elif hyp[have][0] != ref[want][0]:
                    ok = False
                    break
            if ok and place(i + 1):
                return True
            used[j] = False
            del placed[i]
        return False

    return place(0)


def _characters(spans: list[Box]) -> list[Box]:
    """Spans without whitespace, one box per character (the span's width shared equally)."""
    out: list[Box] = []
    for text, x, y, width, height in spans:
        text = _SPACES.sub("", text)
        if not text:
            continue
        for k, char in enumerate(text):
            out.append((char, x + (width * k) / len(text), y, width / len(text), height))
    return out


def _neighbours(boxes: list[Box], tolerance: float = 5) -> list[list[int | None]]:
    """Each box's nearest box up, down, left and right (its centre within ``tolerance`` on the
    other axis; the first of equally near ones)."""
    centres = [(x + w / 2, y + h / 2) for _, x, y, w, h in boxes]
    found: list[list[int | None]] = []
    for i, (cx, cy) in enumerate(centres):
        best: list[int | None] = [None, None, None, None]
        dist: list[float] = [0.0, 0.0, 0.0, 0.0]
        for j, (ox, oy) in enumerate(centres):
            if i == j:
                continue
            candidates = (
                (0, oy < cy and abs(ox - cx) <= tolerance, cy - oy),
                (1, oy > cy and abs(ox - cx) <= tolerance, oy - cy),
                (2, ox < cx and abs(oy - cy) <= tolerance, cx - ox),
                (3, ox > cx and abs(oy - cy) <= tolerance, ox - cx),
            )
            for side, ok, d in candidates:
                if ok and (best[side] is None or d < dist[side]):
                    best[side], dist[side] = j, d
        found.append(best)
    return found
