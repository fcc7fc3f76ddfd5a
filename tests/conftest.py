"""Shared pytest fixtures.

The ``pds`` fixture starts one real local reference PDS (and PLC directory) for the whole
test session; ``account`` makes a fresh account on it for each test. A missing install is a
failure that says how to fix it, never a skip.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devkit.pds import Account, LocalPds, installation_problem


@pytest.fixture(scope="session")
def pds() -> Iterator[LocalPds]:
    """One local PDS for the session, on free loopback ports, with a temporary data dir."""
    problem = installation_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    server = LocalPds()
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def account(pds: LocalPds) -> Account:
    """A fresh account (unique ``.test`` handle) on the session's PDS."""
    return pds.create_account()


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path, monkeypatch):
    """No test reads the developer's config file, environment or state directory, or writes
    to them: each test gets its own config home and state directory under ``tmp_path``."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("PDSMEM_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("PDSMEM_CONFIG", raising=False)
    for name in ("ATP_AUTH_HANDLE", "ATP_AUTH_PASSWORD", "ATP_PDS_HOST", "ATP_PLC_HOST", "MEMORY_SCOPE_SALT"):
        monkeypatch.delenv(name, raising=False)
