"""Fixtures shared by every test folder: a real server process on a free port."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """`tablesight serve` in a subprocess, so a test can kill it with SIGKILL and start it again."""

    def __init__(self, db: Path, source: str = "none"):
        self.db, self.source = db, source
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "ServerProcess":
        cmd = [sys.executable, "-m", "server.cli", "serve", "--port", str(self.port), "--db", str(self.db),
               "--source", self.source, "--no-detector", "--log-level", "warning"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(300):  # readiness by polling, not by a time limit on the test
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not answer")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server_factory():
    """The ServerProcess class, for tests that start, kill and restart servers themselves."""
    return ServerProcess


@pytest.fixture
def server_process(tmp_path):
    """A started server process over a fresh event log; stopped after the test."""
    srv = ServerProcess(tmp_path / "events.sqlite").start()
    yield srv
    srv.stop()


@pytest.fixture
def server_url(server_process) -> str:
    """Base URL of a real uvicorn server with a fresh event log."""
    return server_process.url


# -- headless Chromium (Debian's package) driven by Playwright; never a downloaded browser --
CHROMIUM = os.environ.get("TABLESIGHT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# As root and with no network, Chromium needs these (DESIGN.md, "Server").
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium package (.ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh browser context and page; errors in the page's JS fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
