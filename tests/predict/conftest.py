"""Fixtures for the predict tests: a real scripted chat-completions server on 127.0.0.1.

The server, its reply factories and the image helpers live in ``chat_server`` (a uniquely
named module, so other kinds' conftest files cannot shadow it).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from chat_server import ChatServer


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    """A started :class:`ChatServer` (``.base_url``, ``.script``, ``.requests``, ...),
    stopped after the test."""
    with ChatServer() as server:
        yield server
