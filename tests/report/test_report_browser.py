"""The demo report in headless Chromium: it loads with no console message (the page's
Content-Security-Policy turns any network asset into one), the DOM shows the overview of every
kind, and a screenshot is a valid, non-blank PNG; at 360, 390, 420, 768 and 1280 px the page
does not overflow horizontally (every drill-down open), a screenshot is taken at each width
(kept as a test artefact: ``tests/artefacts/report/shot-<width>.png``, ignored by git), every
item of the demo has its drawing, drawings keep their size (they scroll in their box), names
stay inside their boxes, split diffs stack below 600 px and the overview keeps the system and
headline columns in view.

Chromium is Debian's ``chromium`` package (``apt-get install -y chromium``); without it these
tests fail, they are never skipped.
"""

from __future__ import annotations

import html
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def _chromium() -> str:
    path = CHROMIUM if Path(CHROMIUM).is_file() else shutil.which("chromium")
    if path is None:
        pytest.fail(
            "headless Chromium is needed for the report test: install it with "
            "`apt-get update && apt-get install -y chromium` (Debian package chromium)"
        )
    return path


def _run(page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            _chromium(),
            *FLAGS,
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            *extra,
            page.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def console_messages(stderr: str) -> list[str]:
    """Chromium's ``CONSOLE`` log lines (console calls, uncaught errors, CSP violations)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def png_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the raw (still filtered) scanline bytes of an 8-bit RGB(A) PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    offset, idat, width = 8, b"", 0
    height = bit_depth = colour = 0
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in chunk {kind!r}"
        if kind == b"IHDR":
            width, height, bit_depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    assert bit_depth == 8 and colour in (2, 6), (bit_depth, colour)
    return width, height, zlib.decompress(idat)


@pytest.fixture(scope="module")
def demo_page(demo_results: list[Path]) -> Path:
    """The report `parsescore demo` (`make demo`) writes."""
    page = demo_results[0].parent.parent / "report" / "index.html"
    assert page.is_file()
    return page


def test_console_detection_catches_errors_and_blocked_assets(tmp_path):
    """The check below is only worth something if it sees what it looks for."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!DOCTYPE html><html><head><meta http-equiv='Content-Security-Policy' "
        "content=\"default-src 'none'; script-src 'unsafe-inline'\"></head><body>"
        "<script>console.error('boom'); missingFunction();</script>"
        "<img src='https://example.com/x.png'></body></html>",
        encoding="utf-8",
    )
    result = _run(bad, tmp_path / "profile", "--dump-dom")
    messages = console_messages(result.stderr)
    assert any('"boom"' in m for m in messages)
    assert any("missingFunction" in m for m in messages)
    assert any("Content Security Policy" in m for m in messages)


def test_demo_report_loads_cleanly_and_shows_the_overview(demo_page, tmp_path):
    result = _run(demo_page, tmp_path / "profile", "--dump-dom")
    assert result.returncode == 0, result.stderr[-2000:]
    assert console_messages(result.stderr) == []
    dom = result.stdout
    assert 'id="overview-table"' in dom
    for kind in ("flowchart", "table", "sequence", "graph", "document"):
        assert f'<tbody class="kind" data-kind="{kind}">' in dom
    # one system per demo result of every kind (two sequence models, two document models, ...)
    from parsescore.core.kinds import kinds

    demos = demo_page.parent.parent
    systems = sum(len(list((demos / k.name).glob("result*.json"))) for k in kinds() if k.demo)
    assert dom.count('class="system-row"') == systems >= 5
    assert '<section class="comparison" data-kind="sequence">' in dom
    assert dom.count("<svg") >= 6


def test_demo_report_screenshot_is_a_non_blank_png(demo_page, tmp_path):
    shot = tmp_path / "shot.png"
    result = _run(demo_page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,900")
    assert result.returncode == 0, result.stderr[-2000:]
    assert console_messages(result.stderr) == []
    assert shot.is_file() and shot.stat().st_size > 10_000
    width, height, raw = png_pixels(shot)
    assert (width, height) == (1280, 900)
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape == (900, 1280, 3)
    not_white = (pixels < 0.95).any(axis=2)
    assert not_white.mean() > 0.01, "the screenshot is (nearly) blank"
    assert raw  # the image data decompressed


#: Injected into a copy of the page: opens every drill-down, then records the viewport and
#: document widths and, per item, how many drawings it holds (by the system's kind).
MEASURE = """
document.querySelectorAll('details').forEach(function (d) { d.open = true; });
var items = {};
document.querySelectorAll('details.item').forEach(function (d) {
  var kind = d.closest('details.system').getAttribute('data-kind');
  var drawn = Array.from(d.querySelectorAll('.item-drawing')).filter(function (x) {
    return x.querySelector('svg, table') !== null;
  });
  (items[kind] = items[kind] || []).push(drawn.length);
});
var table = document.querySelector('details.system[data-kind=table] table.sortable');
var rows = function () { return Array.from(table.tBodies[0].rows); };
var worst = rows().map(function (r) { return r.cells[0].textContent; });
table.tHead.rows[0].cells[1].click();  // sort by the first metric, ascending
var sorted = rows().map(function (r) { return parseFloat(r.cells[1].getAttribute('data-v')); });
var filter = table.parentNode.querySelector('input.filter');
filter.value = worst[worst.length - 1];
filter.dispatchEvent(new Event('input'));
var shown = rows().filter(function (r) { return !r.hidden; }).length;
filter.value = ''; filter.dispatchEvent(new Event('input'));
// drawings at their own size (scrolling in their box) rather than shrunk
var scales = Array.from(document.querySelectorAll('svg.drawing')).map(function (svg) {
  var box = svg.getBoundingClientRect();
  return box.width / svg.width.baseVal.value;
}).filter(function (x) { return x > 0; });
// a box's text inside its box
var spilled = [];
document.querySelectorAll('svg.drawing g').forEach(function (g) {
  var rect = g.querySelector('rect');
  if (!rect) { return; }
  g.querySelectorAll('text').forEach(function (t) {
    if (t.textContent !== '✎' && t.getComputedTextLength() > rect.width.baseVal.value) {
      spilled.push(t.textContent);
    }
  });
});
var split = document.querySelector('table.split td:not(.ln)');
var overview = document.querySelector('#overview-table tr.kind-head');
var head = overview.cells[1].getBoundingClientRect();
var out = document.createElement('pre'); out.id = 'measure';
out.textContent = JSON.stringify({viewport: window.innerWidth,
  document: document.documentElement.scrollWidth, items: items,
  worst: worst, sorted: sorted, shown: shown,
  smallest_scale: Math.min.apply(null, scales), spilled: spilled,
  split_display: split ? getComputedStyle(split).display : null,
  system_sticky: getComputedStyle(overview.cells[0]).position,
  headline_right: head.right, headline_label: overview.cells[1].textContent});
document.body.appendChild(out);
"""

#: Headless Chromium's window is at least 500 px wide: narrower screens are an iframe of that
#: width (its media queries see the iframe's width), read by the host page.
HOST = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="page.html" style="width:{width}px;height:900px;border:0;display:block">
</iframe><script>
document.getElementById('f').addEventListener('load', function () {{
  var p = document.createElement('pre'); p.id = 'result';
  p.textContent = this.contentDocument.getElementById('measure').textContent;
  document.body.appendChild(p);
}});
</script></body></html>"""

#: Where the screenshots are kept after the run (ignored by git): ``shot-<width>.png``.
ARTEFACTS = Path(__file__).resolve().parents[1] / "artefacts" / "report"
#: Phones (360, 390, 420), a tablet, a desktop.
WIDTHS = (360, 390, 420, 768, 1280)


@pytest.fixture(scope="module")
def measured(demo_page: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict]:
    """Per width: the page's measures and a screenshot of the page at that width."""
    import json

    import matplotlib.image

    folder = tmp_path_factory.mktemp("widths")
    page = demo_page.read_text(encoding="utf-8")
    assert page.count("</body>") == 1
    (folder / "page.html").write_text(
        page.replace("</body>", f"<script>{MEASURE}</script></body>"), encoding="utf-8"
    )
    out: dict[int, dict] = {}
    for width in WIDTHS:
        host = folder / f"host-{width}.html"
        host.write_text(HOST.format(width=width), encoding="utf-8")
        window = f"--window-size={max(width, 500)},900"
        access = "--allow-file-access-from-files"
        result = _run(host, folder / "profile", access, window, "--dump-dom")
        assert result.returncode == 0, result.stderr[-2000:]
        found = re.search(r'<pre id="result">(.*?)</pre>', result.stdout, re.S)
        assert found, f"no measure at {width} px: {result.stdout[-500:]}"
        shot = folder / f"shot-{width}.png"
        taken = _run(host, folder / "profile", access, window, f"--screenshot={shot}")
        assert taken.returncode == 0, taken.stderr[-2000:]
        pixels = matplotlib.image.imread(shot)[:, :width, :3]
        matplotlib.image.imsave(shot, pixels)  # the page's own width
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, ARTEFACTS / shot.name)  # to look at after the run
        out[width] = json.loads(html.unescape(found.group(1))) | {"shot": shot}
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_no_horizontal_overflow_at_any_width(measured, width):
    """Every drill-down open, the page is no wider than the screen: wide tables and drawings
    scroll inside their own boxes."""
    found = measured[width]
    assert found["viewport"] == width
    assert found["document"] <= width, found


@pytest.mark.parametrize("width", WIDTHS)
def test_drawings_keep_a_readable_size_and_names_stay_in_their_boxes(measured, width):
    found = measured[width]
    assert found["smallest_scale"] >= 0.99, found["smallest_scale"]  # scrolled, not shrunk
    assert found["spilled"] == [], found["spilled"][:5]


@pytest.mark.parametrize("width", WIDTHS)
def test_split_diffs_stack_on_phones_and_the_overview_keeps_its_headline(measured, width):
    found = measured[width]
    assert found["split_display"] == ("block" if width < 600 else "table-cell")
    assert found["system_sticky"] == "sticky"
    assert found["headline_right"] <= width, found  # the headline column is on screen
    assert "↑" in found["headline_label"] or "↓" in found["headline_label"]


@pytest.mark.parametrize("width", WIDTHS)
def test_screenshot_at_each_width_is_a_non_blank_png(measured, width):
    import matplotlib.image

    pixels = matplotlib.image.imread(measured[width]["shot"])[..., :3]
    assert pixels.shape == (900, width, 3)
    assert (pixels < 0.95).any(axis=2).mean() > 0.01, "the screenshot is (nearly) blank"


def test_item_table_is_worst_first_and_its_script_sorts_and_filters(measured, demo_results):
    """The table item list comes worst first by TEDS (as in the result file); a click on the
    TEDS header sorts it ascending; the filter box narrows it to the matching row."""
    import json

    envelope = json.loads((demo_results[1].parent / "result.json").read_text(encoding="utf-8"))
    teds = {item["id"]: item["metrics"]["TEDS"] for item in envelope["items"]}
    found = measured[1280]
    assert found["worst"] == sorted(teds, key=lambda name: (teds[name], name))
    assert found["sorted"] == sorted(teds.values())
    assert found["shown"] == 1


def test_one_drawing_per_item_of_every_kind(measured, demo_results):
    from parsescore.report import load_report_systems

    expected: dict[str, int] = {}
    for system in load_report_systems(demo_results):
        expected[system.kind] = expected.get(system.kind, 0) + len(system.result.items)
    assert expected == {"flowchart": 5, "table": 20, "sequence": 12, "graph": 9}
    items = {k: v for k, v in measured[1280]["items"].items() if k in expected}
    assert {kind: len(counts) for kind, counts in items.items()} == expected
    assert all(count == 1 for counts in items.values() for count in counts), items
