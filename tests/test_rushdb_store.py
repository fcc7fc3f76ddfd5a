"""How ``MemoryStore`` reads the SDK's errors: which are worth trying again. Pure: the SDK's
exception built as it raises it, no server (the servers' own answers are in test_rushdb_errors)."""

from __future__ import annotations

import pytest
from rushdb import RushDBError as SdkError

from pdsmem.bridge.rushdb.store import MemoryStore, RushDBError, RushDBRefused, RushDBServerError, RushDBTarget
from pdsmem.bridge.rushdb.store import RushDBUnreachable


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore(RushDBTarget("key", url="http://127.0.0.1:9"))  # the SDK client connects lazily


@pytest.mark.parametrize(("status", "message", "kind"), [
    (None, "Connection error: <urlopen error [Errno 111] Connection refused>", RushDBUnreachable),
    (403, "Forbidden resource", RushDBRefused),
    (503, "HTTP 503", RushDBServerError),
    (400, "Import failed: The transaction has been terminated. Retry your operation in a new transaction, and "
          "you should see a successful result. ForsetiClient[transactionId=1734] can't acquire ExclusiveLock",
     RushDBServerError),
    (400, "Import failed: The allocation of an extra 11.0 MiB would use more than the limit 716.8 MiB. Currently "
          "using 706.3 MiB. dbms.memory.transaction.total.max threshold reached", RushDBServerError),
    (400, "Import failed: Maximum call stack size exceeded", RushDBError),
])
def test_errors_that_a_retry_can_fix_are_retryable(store: MemoryStore, status, message, kind) -> None:
    err = store._error("write 500 MEMORY_FACT records", SdkError(message, status=status))
    assert type(err) is kind
    assert "HTTP 503: HTTP 503" not in err.message
