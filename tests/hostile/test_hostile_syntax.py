"""``sequence --check-syntax`` never lets a prediction reach a file or the network (issue 16).

Runs the real PlantUML (Debian's ``plantuml``; installed here with apt when missing and the
tests run as root, as in CI). A loopback HTTP server must receive no request and a FIFO must
never be opened: a FIFO's writer blocks until a reader opens it, so a writer thread that got
through means something read the file.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cli_helpers import Cli
from debian_tools import debian_command
from parsescore.sequence import syntax

TRUTH = "@startuml\nA -> B : hello\n@enduml\n"


@pytest.fixture(scope="module")
def plantuml() -> list[str]:
    """The PlantUML command, installing Debian's package when missing (as root)."""
    if not os.environ.get("PLANTUML_JAR"):
        debian_command("plantuml", "plantuml", needed_by="the --check-syntax tests")
    command = syntax.find_plantuml()
    assert command is not None, "PlantUML installed but not found"
    return command


class _Recorder(BaseHTTPRequestHandler):
    hits: list[str]

    def do_GET(self) -> None:
        self.hits.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"A -> B : fetched\n")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def watched_server() -> Iterator[tuple[str, list[str]]]:
    """``(http://127.0.0.1:PORT, requests received)``."""
    hits: list[str] = []
    handler = type("Handler", (_Recorder,), {"hits": hits})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
    server.server_close()


class Fifo:
    """A FIFO whose opening by any reader is detected."""

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)
        self.opened = threading.Event()
        self._thread = threading.Thread(target=self._wait, daemon=True)
        self._thread.start()

    def _wait(self) -> None:
        fd = os.open(self.path, os.O_WRONLY)  # blocks until someone opens it to read
        self.opened.set()
        os.close(fd)

    def was_opened(self) -> bool:
        opened = self.opened.is_set()
        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)  # release the writer thread
        self._thread.join(5)
        os.close(fd)
        return opened


def test_includes_are_refused_and_nothing_is_read_or_fetched(
    tmp_path: Path, cli: Cli, plantuml: list[str], watched_server: tuple[str, list[str]]
) -> None:
    url, hits = watched_server
    fifo = Fifo(tmp_path / "secret.txt")
    predictions = {
        "url.puml": f"@startuml\n!includeurl {url}/x\nA -> B : hello\n@enduml\n",
        "file.puml": f"@startuml\n!include {fifo.path}\nA -> B : hello\n@enduml\n",
        "sub.puml": f"@startuml\n  !includesub {fifo.path}!PART\nA -> B : hello\n@enduml\n",
        "import.puml": f"@startuml\n!import {fifo.path}\nA -> B : hello\n@enduml\n",
        "img.puml": f"@startuml\nA -> B : <img:{url}/i.png>\n@enduml\n",
        "json.puml": f'@startuml\n!$a = %load_json("{fifo.path}")\nA -> B : hello\n@enduml\n',
        "ok.puml": TRUTH,
    }
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    for name, text in predictions.items():
        (truth / name).write_text(TRUTH)
        (pred / name).write_text(text)
    result = cli("sequence", "--truth", truth, "--pred", pred, "--check-syntax", "--quiet")
    assert result.code == 0, result.err
    flat = " ".join(result.out.split())
    for name in predictions:
        if name != "ok.puml":
            assert f"{name}: line" in flat and "refused" in flat, (name, flat)
    assert "ok.puml: line" not in flat and "ok.puml: does not compile" not in flat
    assert "syntax check: 6 prediction(s) do not compile" in flat
    assert hits == []
    assert not fifo.was_opened()


def test_plantuml_itself_has_no_network(
    plantuml: list[str], watched_server: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the refusal (called directly here), PlantUML still reaches no server: with the
    whole sandbox, and with the Java proxy settings alone (no network namespace)."""
    url, hits = watched_server
    script = f"@startuml\n!includeurl {url}/x\nA -> B : hello\n@enduml\n"
    assert not syntax._compile(plantuml, "x.puml", script, None).ok
    monkeypatch.setattr(syntax, "_no_network_prefix", lambda: ())
    assert not syntax._compile(plantuml, "x.puml", script, None).ok
    assert hits == []
    # the control: PlantUML run plainly does fetch it, so the server above would have seen it
    jar = plantuml[plantuml.index("-jar") + 1]
    plain = [plantuml[0], "-Djava.awt.headless=true", "-jar", jar, "-syntax"]
    subprocess.run(plain, input=script.encode(), capture_output=True, timeout=120, check=False)
    assert hits and set(hits) == {"/x"}  # (PlantUML may fetch twice)


def test_the_fifo_detector_sees_a_reader(tmp_path: Path) -> None:
    fifo = Fifo(tmp_path / "f")
    with open(fifo.path, "rb"):
        fifo.opened.wait(5)
    assert fifo.was_opened()


def test_refused_directive_reports_the_line() -> None:
    assert syntax.refused_directive("@startuml\nA -> B\n!include_many x\n") == (3, "!include_many")
    assert syntax.refused_directive("@startuml\nA -> B : include me\n@enduml\n") is None
