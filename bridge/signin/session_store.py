"""The session files: one per (PDS URL, DID) under ``<state dir>/sessions/``, owner-only.

Scope: what a session file holds, reading and writing it. Two kinds of session are kept:
- ``StoredSession``: tokens from ``createSession`` with an app password (``bridge.signin.session``);
- ``StoredGrant``: an atproto OAuth grant, with its tokens and the private DPoP key they are
  bound to (``bridge.signin.oauth``).

Files are owner-only (file 0600, folder 0700) and replaced atomically (temporary file, fsync,
rename): a crash leaves the old file or the new one, never half of one. The state dir is
``PDSMEM_STATE_DIR`` or the platform's user state folder. Passwords are never stored; tokens
and keys never reach a ``repr``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union
from urllib.parse import urlsplit

from pdsmem.errors import PdsmemError, SessionError, StateError

try:
    import fcntl
except ImportError:  # not on Windows: renewals there are not serialised between processes
    fcntl = None  # type: ignore[assignment]

from ..pipelines.state import resolve_state_dir

__all__ = ["SessionError", "SessionStore", "Stored", "StoredGrant", "StoredSession", "parse_identifier"]


_FORMAT_VERSION = 1


@dataclass(frozen=True)
class StoredSession:
    """One account's session at one PDS, as kept in its session file."""

    pds_url: str
    did: str
    handle: str
    access_jwt: str = field(repr=False)
    refresh_jwt: str = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": _FORMAT_VERSION, "pdsUrl": self.pds_url, "did": self.did,
            "handle": self.handle, "accessJwt": self.access_jwt, "refreshJwt": self.refresh_jwt,
        }

    @classmethod
    def from_json(cls, data: Any) -> StoredSession | None:
        """The session in ``data``, or None when it is not a session file this version wrote."""
        keys = ("pdsUrl", "did", "handle", "accessJwt", "refreshJwt")
        if not isinstance(data, dict) or data.get("version") != _FORMAT_VERSION:
            return None
        if not all(isinstance(data.get(key), str) and data[key] for key in keys):
            return None
        return cls(*(data[key] for key in keys))


@dataclass(frozen=True)
class StoredGrant:
    """One account's atproto OAuth grant at one PDS, as kept in its session file.

    ``dpop_key`` is the private JWK the tokens are bound to: without it they are useless, so it is
    kept with them, in the same owner-only file. ``scope`` is what the authorization server
    granted, which can be less than what was asked for. ``refused`` is what the authorization
    server said when it last refused to renew the grant (revoked or expired: only a new sign-in
    helps), None while it is accepted.
    """

    pds_url: str
    did: str
    handle: str
    issuer: str
    client_id: str
    token_endpoint: str
    revocation_endpoint: str | None
    scope: str
    expires_at: float
    access_token: str = field(repr=False)
    refresh_token: str = field(repr=False)
    dpop_key: dict[str, Any] = field(repr=False)
    refused: str | None = None

    _KIND = "oauth"
    _TEXT = ("pdsUrl", "did", "handle", "issuer", "clientId", "tokenEndpoint", "scope",
             "accessToken", "refreshToken")

    def to_json(self) -> dict[str, Any]:
        return {
            "version": _FORMAT_VERSION, "kind": self._KIND, "pdsUrl": self.pds_url, "did": self.did,
            "handle": self.handle, "issuer": self.issuer, "clientId": self.client_id,
            "tokenEndpoint": self.token_endpoint, "revocationEndpoint": self.revocation_endpoint,
            "scope": self.scope, "expiresAt": self.expires_at, "accessToken": self.access_token,
            "refreshToken": self.refresh_token, "dpopKey": self.dpop_key,
            **({"refused": self.refused} if self.refused else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> StoredGrant | None:
        """The grant in ``data``, or None when it is not a grant file this version wrote."""
        if not isinstance(data, dict) or data.get("version") != _FORMAT_VERSION:
            return None
        if data.get("kind") != cls._KIND:
            return None
        if not all(isinstance(data.get(key), str) and data[key] for key in cls._TEXT):
            return None
        revocation = data.get("revocationEndpoint")
        expires_at = data.get("expiresAt")
        if revocation is not None and not isinstance(revocation, str):
            return None
        if isinstance(expires_at, bool) or not isinstance(expires_at, (int, float)):
            return None
        key = data.get("dpopKey")
        if not (isinstance(key, dict) and key.get("kty") == "EC" and key.get("crv") == "P-256"
                and all(isinstance(key.get(part), str) and key[part] for part in ("x", "y", "d"))):
            return None  # not the private P-256 key a grant's tokens are bound to
        return cls(
            data["pdsUrl"], data["did"], data["handle"], data["issuer"], data["clientId"],
            data["tokenEndpoint"], revocation, data["scope"], float(expires_at),
            data["accessToken"], data["refreshToken"], data["dpopKey"],
            data["refused"] if isinstance(data.get("refused"), str) and data["refused"] else None,
        )


Stored = Union[StoredSession, StoredGrant]
"""What a session file holds: an app-password session or an OAuth grant."""


def _read(data: Any) -> Stored | None:
    """The session ``data`` holds, or None when it is not one this version wrote. Every field is
    checked here as the code that uses it needs it (a DID, a URL to connect to, a token to send in
    a header, a key to sign with), so that a damaged file is skipped as unreadable, never a failure
    later."""
    try:
        stored = StoredSession.from_json(data) or StoredGrant.from_json(data)
        return stored if stored is not None and _usable(stored) else None
    except (ValueError, OverflowError):  # a name or URL that does not parse; a number beyond a float
        return None


_TOKEN = re.compile(r"[!-~]+")  # printable ASCII, no blanks: what a header may carry
_KEY_MEMBERS = frozenset({"kty", "crv", "x", "y", "d"})  # the private JWK as ``Dpop`` writes it


def _usable(stored: Stored) -> bool:
    """Whether the fields of ``stored`` are what the sessions that use it need; raises
    ``ValueError`` (``InvalidSyntax`` is one) for a DID, handle or URL that does not parse."""
    from pdsmem.mapping.syntax import Did, Handle  # loaded where a kept session is read, not with the store

    Did.parse(stored.did)
    Handle.parse(stored.handle)
    urls = [stored.pds_url]
    if isinstance(stored, StoredSession):
        tokens = [stored.access_jwt, stored.refresh_jwt]
    else:
        urls += [stored.issuer, stored.token_endpoint]
        urls += [stored.revocation_endpoint] if stored.revocation_endpoint is not None else []
        tokens = [stored.access_token, stored.refresh_token]
        if not (math.isfinite(stored.expires_at) and stored.scope.isprintable()
                and stored.client_id.isprintable() and _private_key(stored.dpop_key)):
            return False
    for url in urls:
        _normalize_base_url(url)  # as connecting reads it
        parts = urlsplit(url)  # as comparing addresses reads it
        if not parts.hostname or parts.port == 0:  # a port that is not a number raises ValueError
            return False
    return all(_TOKEN.fullmatch(token) for token in tokens)


def _private_key(jwk: dict[str, Any]) -> bool:
    """Whether ``jwk`` is a P-256 private key the DPoP proofs can be signed with."""
    from joserfc.errors import JoseError  # imported here: only a grant needs them
    from joserfc.jwk import ECKey

    if set(jwk) != _KEY_MEMBERS:
        return False
    try:
        return ECKey.import_key(dict(jwk)).is_private
    except (ValueError, JoseError):  # not base64url, or not a point on the curve
        return False


def _write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; the file is readable by its owner only."""
    import tempfile  # loaded where a session is written, not where one is read

    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if hasattr(os, "O_DIRECTORY"):  # make the rename itself durable
        dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


_WARNED: set[Path] = set()  # the unreadable session files this run has warned about


class SessionStore:
    """The session files under ``<state_dir>/sessions``."""

    def __init__(self, state_dir: str | os.PathLike[str] | None = None) -> None:
        self.state_dir = resolve_state_dir(state_dir)
        self.directory = self.state_dir / "sessions"
        self.unreadable: dict[Path, str] = {}  # what the last ``sessions()`` could not read, and why

    def __repr__(self) -> str:
        return f"SessionStore({str(self.state_dir)!r})"

    def path_for(self, pds_url: str, did: str) -> Path:
        """The session file of ``did`` at ``pds_url``: readable name plus a hash of both."""
        url = _normalize_base_url(pds_url)
        readable = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{url.split('://', 1)[1]}_{did}")[:120]
        import hashlib

        digest = hashlib.sha256(f"{url}\n{did}".encode()).hexdigest()[:12]
        return self.directory / f"{readable}-{digest}.json"

    def sessions(self, *, log_unreadable: bool = True) -> list[Stored]:
        """Every stored session, in file-name order; unreadable files are skipped, logged (once a
        run, however often a command asks) unless ``log_unreadable`` is False, and kept in
        ``unreadable`` with why, in words (for a message that says why a session was not found,
        and for ``pdsmem status``): never what they hold."""
        self.unreadable = {}
        if not self.directory.is_dir():
            return []
        found = []
        for path in sorted(self.directory.glob("[!.]*.json")):  # not a temporary ".tmp-" file
            stored, why = None, "damaged, or written by another version"  # JSON, but not a session
            try:
                stored = _read(json.loads(path.read_bytes()))
            except IsADirectoryError:
                why = "cannot be read: it is a directory"
            except OSError as err:
                why = f"cannot be read: {(err.strerror or 'the system refused to read it').lower()}"
            except RecursionError:
                why = "damaged: nested too deeply"
            except ValueError:  # not UTF-8, or not JSON
                why = "damaged: not JSON"
            if stored is None:
                if log_unreadable and path not in _WARNED:
                    _WARNED.add(path)
                    import logging  # loaded where a file is unreadable, not with the store

                    logging.getLogger(__name__).warning("ignoring the session file %s: it %s (move it aside and sign in again; "
                                "'pdsmem status' lists such files)", path, why.replace("damaged", "is damaged", 1))
                self.unreadable[path] = why
                continue
            found.append(stored)
        return found

    def load(self, pds_url: str, identifier: str) -> Stored | None:
        """The stored session at ``pds_url`` of the account named by DID or handle, if any."""
        found = self.sessions_of(identifier, pds_url)
        return found[0] if found else None

    def find(self, identifier: str, pds_url: str | None = None) -> Stored | None:
        """The stored session of the account named by DID or handle: at ``pds_url`` when given,
        else at whichever PDS it was made (None when there is none, or several)."""
        found = self.sessions_of(identifier, pds_url)
        return found[0] if len(found) == 1 else None

    def sessions_of(self, identifier: str, pds_url: str | None = None) -> list[Stored]:
        """The stored sessions of the account named by DID or handle (none for a name that is
        neither), at ``pds_url`` when given: stored under that very address, else under another
        spelling of it on this machine (``localhost`` for ``127.0.0.1``; an OAuth grant is kept
        under the address of the account's DID document, whatever address was typed)."""
        try:
            wanted = parse_identifier(identifier)
        except PdsmemError:  # not a handle or DID: no session can be its
            return []
        theirs = [stored for stored in self.sessions() if wanted in (stored.did, stored.handle.lower())]
        if pds_url is None:
            return theirs
        url = _normalize_base_url(pds_url)
        return ([stored for stored in theirs if stored.pds_url == url]
                or [stored for stored in theirs if _same_loopback_server(stored.pds_url, url)])

    def prepare(self) -> None:
        """Make the sessions directory (owner-only), or raise ``StateError`` saying why it cannot
        be made: before a login, so that a session the PDS opens is one pdsmem can keep."""
        try:
            self.state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.directory.mkdir(mode=0o700, exist_ok=True)
            os.chmod(self.directory, 0o700)
        except OSError as err:
            raise StateError(f"cannot keep sessions in {self.directory}: {err.strerror or 'the system refused'}",
                             hint="set PDSMEM_STATE_DIR or --state-dir (state_dir= in the library) to a directory you can write") from None

    def save(self, stored: Stored) -> Path:
        """Write ``stored`` to its session file (atomically, owner-only); return the path."""
        self.prepare()
        path = self.path_for(stored.pds_url, stored.did)
        try:
            _write_private(path, json.dumps(stored.to_json(), indent=2).encode())
        except OSError as err:
            raise StateError(f"cannot keep the session in {path}: {err.strerror or 'the system refused'}",
                             hint="set PDSMEM_STATE_DIR or --state-dir (state_dir= in the library) to a directory you can write") from None
        return path

    @contextmanager
    def renewing(self, pds_url: str, did: str) -> Iterator[None]:
        """Held while one process renews the session of ``did`` at ``pds_url``: another pdsmem
        process renewing the same session waits, then finds the renewed tokens in the file (a
        refresh token is single use: two renewals with it would spend it twice)."""
        self.state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.directory.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(self._lock_path(pds_url, did), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)  # owner-only like the session files, whatever the umask or an older file
        with os.fdopen(fd, "a") as handle:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes
            yield

    def _lock_path(self, pds_url: str, did: str) -> Path:
        path = self.path_for(pds_url, did)
        return path.with_name(f".{path.stem}.lock")

    def delete(self, pds_url: str, did: str) -> bool:
        """Remove the session file of ``did`` at ``pds_url``, and its renewal lock file; False
        when there was no session file."""
        self._lock_path(pds_url, did).unlink(missing_ok=True)  # an empty file: nothing is lost
        path = self.path_for(pds_url, did)
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        return True


_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def _same_loopback_server(one: str, other: str) -> bool:
    """Whether two base URLs name the same server on this machine under different host names."""
    a, b = urlsplit(one), urlsplit(other)
    return (a.hostname in _LOOPBACK and b.hostname in _LOOPBACK and a.scheme == b.scheme
            and a.port == b.port)


def parse_identifier(identifier: str) -> str:
    """A DID as is, or a handle in lowercase (``@`` prefix allowed)."""
    raw = identifier.strip()
    raw = raw[1:] if raw.startswith("@") else raw
    from pdsmem.mapping.syntax import AtIdentifier

    parsed = AtIdentifier.parse(raw)
    return str(parsed) if parsed.is_did else str(parsed).lower()


def _normalize_base_url(url: str) -> str:
    from ..atproto.xrpc import normalize_base_url  # httpx loads where a session is, not with the store

    return normalize_base_url(url)
