"""Shared pytest fixtures.

The ``pds`` fixture starts one real local reference PDS (and PLC directory) for the whole
test session; ``account`` makes a fresh account on it for each test. ``rushdb_server`` starts
one real local RushDB server (Neo4j and the RushDB core) for the session, and ``rushdb`` makes a
fresh project with its own API key on it for each test, so tests never see each other's data.
A missing install is a failure that says how to fix it, never a skip.

A test that uses a server's fixture is marked ``pds`` or ``rushdb`` here, whatever its module
says, so that the fast tier (``scripts/test --fast``: ``-m "not pds and not rushdb"``) never starts
a server. Under pytest-xdist (``scripts/test``: two workers) each worker is a session of its own:
it starts its own servers on free ports, and its temporary directory is its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from devkit import rushdb as local_rushdb
from devkit.pds import Account, LocalPds, installation_problem
from devkit.service import LocalService


_SERVER_FIXTURES = {"pds": {"pds", "account", "pdsmem_dev"}, "rushdb": {"rushdb_server", "rushdb"}}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in _SERVER_FIXTURES.items():
            if used & fixtures and item.get_closest_marker(marker) is None:
                item.add_marker(marker)


@pytest.fixture(scope="session")
def pds() -> Iterator[LocalPds]:
    """One local PDS for the session, on free loopback ports, with a temporary data dir."""
    yield from _running(installation_problem(), LocalPds)


@pytest.fixture
def account(pds: LocalPds) -> Account:
    """A fresh account (unique ``.test`` handle) on the session's PDS."""
    return pds.create_account()


@pytest.fixture(scope="session")
def pdsmem_dev(pds: LocalPds) -> Account:
    """The account pdsmem.dev on the session's PDS (a handle is taken once per PDS): its handle is
    the authority domain of dev.pdsmem.agentMemory, so it may publish that lexicon."""
    return pds.create_account_with_handle("pdsmem.dev")


@pytest.fixture(scope="session")
def rushdb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[local_rushdb.LocalRushDB]:
    """One local RushDB server for the session, on free loopback ports. Its data and logs
    (core.log, neo4j.log) stay in pytest's temporary directory of the session, for a look after
    a failure."""
    yield from _running(local_rushdb.installation_problem(),
                        lambda: local_rushdb.LocalRushDB(data_dir=tmp_path_factory.mktemp("rushdb")))


def _running(problem: str | None, make: Callable[[], LocalService]) -> Iterator[Any]:
    """A server ``make`` gives, started, and closed after; a missing install fails, never skips."""
    if problem:
        pytest.fail(problem, pytrace=False)
    server = make()
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def rushdb(rushdb_server: local_rushdb.LocalRushDB) -> local_rushdb.Project:
    """A fresh RushDB project (and write API key) of the session's server."""
    return rushdb_server.new_project()


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path, monkeypatch):
    """No test reads the developer's config file, environment or state directory, or writes
    to them: each test gets its own config home and state directory under ``tmp_path``."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("PDSMEM_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("PDSMEM_CONFIG", raising=False)
    for name in ("ATP_AUTH_HANDLE", "ATP_AUTH_USERNAME", "ATP_AUTH_PASSWORD", "ATP_PDS_HOST", "ATP_PLC_HOST",
                 "MEMORY_SCOPE_SALT", "RUSHDB_MEMORY_SCOPE_SALT", "RUSHDB_API_KEY", "RUSHDB_API_URL", "RUSHDB_ENGINE_URL", "RUSHDB_ENGINE_TOKEN",
                 "RUSHDB_ENGINE_SCOPE", "RUSHDB_EMBEDDING_API_KEY", "RUSHDB_EMBEDDING_MODEL",
                 "RUSHDB_EMBEDDING_DIMENSIONS", "RUSHDB_EMBEDDING_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
