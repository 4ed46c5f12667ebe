"""Fixtures shared by every test folder: a real server process on a free port."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """`tablesight serve` in a subprocess, so a test can kill it with SIGKILL and start it again."""

    def __init__(self, db: Path | str, source: str = "none"):
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


# -- PostgreSQL (issue 17): a cluster that .ci/run starts, or one started here in a temp folder --
PG_ENV = "TABLESIGHT_TEST_PG_DSN"  # set by .ci/run: the admin URL of a running cluster
PG_REQUIRED = "TABLESIGHT_REQUIRE_PG"  # set by .ci/run: no PostgreSQL is a failure, not a skip


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    return found[-1].parent if found else None


def _pg_unavailable(reason: str):
    if os.environ.get(PG_REQUIRED):
        pytest.fail(f"PostgreSQL is required here ({PG_REQUIRED} is set) but {reason}")
    pytest.skip(f"no PostgreSQL: {reason} (install Debian's postgresql package, or set {PG_ENV})")


@pytest.fixture(scope="session")
def pg_admin(tmp_path_factory):
    """The admin URL of a PostgreSQL cluster: $TABLESIGHT_TEST_PG_DSN, else a throwaway cluster in a
    temp folder (run as the `postgres` user when the tests run as root: initdb refuses root)."""
    if os.environ.get(PG_ENV):
        yield os.environ[PG_ENV]
        return
    bindir = _pg_bin()
    if bindir is None:
        _pg_unavailable("no /usr/lib/postgresql/*/bin/initdb")
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None or subprocess.run(["id", "postgres"], capture_output=True).returncode:
            _pg_unavailable("running as root with no `postgres` user to run the cluster as")
        as_user = ["runuser", "-u", "postgres", "--"]
    folder = Path(tempfile.mkdtemp(prefix="tablesight-pg-"))
    if as_user:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "tablesight"],
                   check=True, capture_output=True)
    subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-o",
                    f"-c listen_addresses='' -k {folder} -c max_connections=200", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://tablesight@/postgres?host={folder}"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_dsn(pg_admin):
    """The URL of a new, empty database on the cluster (dropped after the test)."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield _with_dbname(pg_admin, name)
    with psycopg.connect(pg_admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _with_dbname(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))
