"""``meeplezoo serve`` checks its database, its port and its --allow-agent specs before it prints its banner:
a problem is one line on stderr and exit status 2. uvicorn never serves here: its ``run`` is replaced."""

from __future__ import annotations

import socket
import sys

import pytest

pytest.importorskip("uvicorn")
import uvicorn
from starlette.testclient import TestClient

from meeplezoo import cli


@pytest.fixture
def served(monkeypatch):
    """What uvicorn was asked to serve: (app, addresses of the sockets it was given) per call; nothing is served."""
    calls = []

    def run(self, sockets=None):
        calls.append((self.config.app, [s.getsockname() for s in sockets or []]))

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(uvicorn, "run", lambda app, *a, **k: calls.append((app, None)))
    return calls


def serve(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = cli.main(["serve", *args])
    except SystemExit as exc:  # argparse's own errors exit
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def assert_refused(code: int, out: str, err: str, served: list, words: str) -> None:
    assert code == 2 and not served and "MeepleZoo at" not in out, (code, out, err)
    assert err.startswith("meeplezoo serve: error: ") and err.count("\n") == 1 and words in err, err


def test_a_busy_port_is_one_line_and_no_banner(tmp_path, capsys, served):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = serve(capsys, "--port", str(port), "--db", str(tmp_path / "web.sqlite"))
    assert_refused(*result, served, f"cannot listen on 127.0.0.1:{port}")


@pytest.mark.parametrize("case", ["corrupt", "no folder", "under a file", "a folder", "unwritable place"])
def test_a_database_it_cannot_use_is_one_line_and_no_banner(tmp_path, capsys, served, case):
    if case == "unwritable place" and not sys.platform.startswith("linux"):
        pytest.skip("/proc takes no new files on Linux only")
    (tmp_path / "corrupt.sqlite").write_text("not a database")
    (tmp_path / "folder.sqlite").mkdir()
    db = {
        "corrupt": tmp_path / "corrupt.sqlite",
        "no folder": tmp_path / "nonexistent" / "dir" / "x.sqlite",
        "under a file": tmp_path / "corrupt.sqlite" / "x.sqlite",
        "a folder": tmp_path / "folder.sqlite",
        "unwritable place": "/proc/meeplezoo-web.sqlite",  # root may write any file, not here
    }[case]
    assert_refused(*serve(capsys, "--port", str(free_port()), "--db", str(db)), served, str(db))
    assert (tmp_path / "corrupt.sqlite").read_text() == "not a database"


def test_an_allowed_agent_that_does_not_exist_is_one_line(tmp_path, capsys, served):
    for spec, words in [("nosuch", "no game has an agent 'nosuch'"), ("mcts:depth=3", "no parameter 'depth'")]:
        result = serve(capsys, "--port", str(free_port()), "--db", str(tmp_path / "w.sqlite"), "--allow-agent", spec)
        assert_refused(*result, served, words)


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--allow-host", "", "--allow-host: takes a host NAME or NAME:PORT"),
        ("--allow-host", "evil.example/x", "not 'evil.example/x'"),
        ("--allow-host", "box:99999", "(port 1..65535)"),
        ("--think-seconds", "0", "--think-seconds: takes a number above 0"),
        ("--think-seconds", "nan", "at most 3600, not nan"),
        ("--think-seconds", "soon", "takes a number, not 'soon'"),
    ],
)
def test_a_bad_host_or_think_time_is_one_line_and_nothing_made(tmp_path, capsys, served, option, value, words):
    db = tmp_path / "w.sqlite"
    assert_refused(*serve(capsys, "--port", str(free_port()), "--db", str(db), option, value), served, words)
    assert not db.exists()


def test_serve_binds_its_port_then_prints_its_banner_and_answers_only_to_its_own_host(tmp_path, capsys, served):
    port = free_port()
    db = tmp_path / "web.sqlite"
    code, out, err = serve(capsys, "--port", str(port), "--db", str(db), "--allow-agent", "mcts:iters=5000")
    assert code == 0 and out.startswith(f"MeepleZoo at http://127.0.0.1:{port}/") and db.is_file(), (out, err)
    (app, sockets), = served  # fmt: skip
    assert sockets == [("127.0.0.1", port)]  # bound (and listening) before uvicorn got it
    for base, status in [(f"http://127.0.0.1:{port}", 200), (f"http://localhost:{port}", 200),
                         ("http://evil.example", 403), (f"http://127.0.0.1:{port + 1}", 403)]:  # fmt: skip
        with TestClient(app, base_url=base) as c:
            r = c.get("/api/catalog")
            assert r.status_code == status, base
    with TestClient(app, base_url=f"http://127.0.0.1:{port}") as c:
        bots = {b["name"] for g in c.get("/api/catalog").json()["games"] for b in g["bots"]}
        assert "mcts:iters=5000" in bots and "human" not in bots


def test_serve_runs_bots_in_processes_unless_told_and_refuses_a_module_it_cannot_import(tmp_path, capsys, served):
    db = str(tmp_path / "web.sqlite")
    assert serve(capsys, "--port", str(free_port()), "--db", db)[0] == 0
    assert serve(capsys, "--port", str(free_port()), "--db", db, "--isolation", "none")[0] == 0
    assert [app.state.web.isolation for app, _ in served] == ["process", "none"]
    code, out, err = serve(capsys, "--port", str(free_port()), "--db", db, "--import", "no_such_bots_module")
    assert_refused(code, out, err, served[2:], "--import no_such_bots_module: cannot import it")
