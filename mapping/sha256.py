"""SHA-256 without loading OpenSSL for the short inputs a short command hashes.

``hashlib`` loads OpenSSL's library when it is imported: about 6 ms of every start of pdsmem
(docs/benchmarks.md, start-up), where a command that maps one memory hashes a few hundred bytes
(its ids, its record's CID). Python carries its own SHA-256 (``_sha2``; ``_sha256`` before
Python 3.12), about as fast as OpenSSL's below a kilobyte and up to five times slower on long
inputs: short inputs are hashed by it, long ones by ``hashlib`` (imported on the first), to the
same digest (tests/test_sha256.py). Repositories are verified in ``pdsmem.bridge``, by
``hashlib``'s own.
"""

from __future__ import annotations

try:
    from _sha2 import sha256 as _built_in  # Python 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256 as _built_in  # Python 3.11
    except ImportError:  # a Python built without it
        _built_in = None

# the longest input hashed by Python's own (bytes)
SHORT = 1024


def sha256(data: bytes):
    """``hashlib.sha256(data)``: a hash object with ``digest()`` and ``hexdigest()``."""
    if len(data) <= SHORT and _built_in is not None:
        return _built_in(data)
    import hashlib  # (OpenSSL's, faster on long inputs)

    return hashlib.sha256(data)


def sha256_without_openssl(data: bytes):
    """``sha256(data)`` by Python's own at any length: for what a short command hashes a few times,
    where loading OpenSSL would cost more than a slower hash (a pattern's name,
    ``pdsmem.mapping.compiled_patterns``)."""
    if _built_in is not None:
        return _built_in(data)
    return sha256(data)
