"""``pdsmem.mapping.sha256`` hashes to ``hashlib``'s digest, by Python's own SHA-256 for short inputs
(a short command then loads no OpenSSL) and by ``hashlib``'s beyond."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from pdsmem.mapping import sha256 as module
from pdsmem.mapping.sha256 import SHORT, sha256


@given(st.binary(max_size=SHORT * 2 + 10))
def test_the_digest_is_hashlibs(data):
    assert sha256(data).digest() == hashlib.sha256(data).digest()
    assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


def test_either_side_of_the_limit():
    for size in (0, 1, SHORT - 1, SHORT, SHORT + 1, 10 * SHORT):
        data = bytes(range(256)) * (size // 256) + bytes(size % 256)
        assert sha256(data).digest() == hashlib.sha256(data).digest(), size


def test_a_short_input_loads_no_openssl():
    assert module._built_in is not None  # (CPython carries its own)
    code = ("import sys; from pdsmem.mapping.sha256 import sha256; sha256(b'x' * 900).digest(); "
            "print('hashlib' in sys.modules, '_hashlib' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split() == \
           ["False", "False"]


def test_without_openssl_at_any_length():
    for size in (0, SHORT + 1, 10 * SHORT):
        data = bytes(size)
        assert module.sha256_without_openssl(data).hexdigest() == hashlib.sha256(data).hexdigest()
    code = ("import sys; from pdsmem.mapping.sha256 import sha256_without_openssl as h; h(b'x' * 100000).digest(); "
            "print('_hashlib' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split() == \
           ["False"]
