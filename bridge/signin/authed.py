"""What a logged-in client is, whichever way it signed in: the calls and properties that an
app-password session (``bridge.signin.session.Session``) and an OAuth grant (``bridge.signin.oauth.OAuthSession``)
share.

Scope: the account it speaks for, closing, and ``query``/``procedure``/``stream`` as on
:class:`~pdsmem.bridge.atproto.xrpc.XrpcClient`, each run through the subclass's ``_renewing``, which
renews the credentials once when the PDS says they expired.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from typing import Any, Protocol, Self, TypeVar

from ..atproto.xrpc import RateLimit, XrpcClient

__all__ = ["AuthedCalls"]

_T = TypeVar("_T")


class _Account(Protocol):
    did: str
    handle: str
    pds_url: str


class AuthedCalls:
    """The shared half of a logged-in client. Subclasses set ``_stored`` (the stored session or
    grant: ``did``, ``handle``, ``pds_url``) and ``xrpc``, and define ``_renewing``."""

    _stored: _Account
    xrpc: XrpcClient

    @property
    def did(self) -> str:
        return self._stored.did

    @property
    def handle(self) -> str:
        return self._stored.handle

    @property
    def pds_url(self) -> str:
        return self._stored.pds_url

    @property
    def last_rate_limit(self) -> RateLimit | None:
        return self.xrpc.last_rate_limit

    def __repr__(self) -> str:
        return f"{type(self).__name__}(did={self.did!r}, handle={self.handle!r}, pds_url={self.pds_url!r})"

    def close(self) -> None:
        self.xrpc.close()

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return self.xrpc.closed

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def query(self, nsid: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return self._renewing(lambda: self.xrpc.query(nsid, params))

    def procedure(
        self,
        nsid: str,
        body: Mapping[str, Any] | bytes | None = None,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        return self._renewing(lambda: self.xrpc.procedure(nsid, body, headers=headers))

    @contextmanager
    def stream(self, nsid: str, params: Mapping[str, Any] | None = None) -> Iterator[Iterator[bytes]]:
        with ExitStack() as stack:
            yield self._renewing(lambda: stack.enter_context(self.xrpc.stream(nsid, params)))

    def _renewing(self, call: Callable[[], _T]) -> _T:
        """Run ``call``, renewing the credentials once when the PDS says they expired."""
        raise NotImplementedError
