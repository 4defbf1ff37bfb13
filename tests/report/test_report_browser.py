"""The demo report in headless Chromium: it loads with no console message (the page's
Content-Security-Policy turns any network asset into one), the DOM shows the overview of every
kind, and a screenshot is a valid, non-blank PNG.

Chromium is Debian's ``chromium`` package (``apt-get install -y chromium``); without it these
tests fail, they are never skipped.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from parsescore.report import ReportOptions, write_report

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
def demo_page(demo_results: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    return write_report(demo_results, out, options=ReportOptions(n_resamples=2000))


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
    for kind in ("flowchart", "table", "sequence", "graph"):
        assert f'<tbody class="kind" data-kind="{kind}">' in dom
    assert dom.count('class="system-row"') == 5  # one flowchart, table, graph; two sequence
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
