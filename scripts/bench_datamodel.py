"""Benchmark: CIDs for small memory records, pdsmem's encoder against libipld in the same run.

Usage: python scripts/bench_datamodel.py [--records N]

Each side turns N small records (the shape of a dev.bastienrobert.memory.record) into DAG-CBOR
and a CID. pdsmem starts from the JSON form (``cid_for_json``: validate, convert, encode, hash;
``cid_text_for_json``: the same, straight to the CID string the mappers need);
the baseline is libipld, a compiled library, encoding the same IPLD values and hashing them.
Decoding (strict, back to IPLD form) is measured the same way. The two must agree on every CID
and every decoded value; the script prints both rates and their ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import libipld

from pdsmem.mapping.datamodel import (
    Cid,
    cid_for_json,
    cid_text_for_json,
    decode_dag_cbor,
    encode_dag_cbor,
    json_to_ipld,
)


def make_records(count: int) -> list[dict]:
    records = []
    for i in range(count):
        records.append(
            {
                "$type": "dev.bastienrobert.memory.record",
                "content": f"The user prefers dark roast coffee, noted in session {i} (café ☕).",
                "kind": "fact" if i % 3 else "episode",
                "createdAt": f"2025-03-{1 + i % 28:02d}T10:{i % 60:02d}:00.000Z",
                "occurredAt": f"2025-03-{1 + i % 28:02d}T09:{i % 60:02d}:00.000Z",
                "provenance": {"runtime": "hermes", "sourceEventId": f"evt-{i:08d}"},
                "scope": {"visibility": "shared"},
                "supersedes": [f"at://did:plc:abc/dev.bastienrobert.memory.record/3k{i:011d}"],
                "ext": {"confidence": 90 + i % 10, "active": True, "subjectKey": None},
            }
        )
    return records


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    count = parser.parse_args().records
    records = make_records(count)
    ipld = [json_to_ipld(r) for r in records]  # same values for the baseline, outside the timing

    start = time.perf_counter()
    ours = [cid_for_json(r) for r in records]
    ours_s = time.perf_counter() - start

    start = time.perf_counter()
    ours_text = [cid_text_for_json(r) for r in records]
    text_s = time.perf_counter() - start

    start = time.perf_counter()
    ours_encode_only = [encode_dag_cbor(v) for v in ipld]
    encode_s = time.perf_counter() - start

    start = time.perf_counter()
    baseline = [hashlib.sha256(libipld.encode_dag_cbor(v)).digest() for v in ipld]
    base_s = time.perf_counter() - start

    start = time.perf_counter()
    decoded = [decode_dag_cbor(e) for e in ours_encode_only]
    decode_s = time.perf_counter() - start

    start = time.perf_counter()
    for encoded in ours_encode_only:
        libipld.decode_dag_cbor(encoded)
    base_decode_s = time.perf_counter() - start

    mismatches = sum(a.digest != b for a, b in zip(ours, baseline))
    mismatches += sum(d != v for d, v in zip(decoded, ipld))
    mismatches += sum(Cid.for_dag_cbor(e) != c for e, c in zip(ours_encode_only, ours))
    mismatches += sum(text != str(c) for text, c in zip(ours_text, ours))
    print(f"records:                        {count}")
    print(f"pdsmem cid_for_json (JSON->CID): {rate(count, ours_s):>10,.0f} records/s")
    print(f"pdsmem cid_text_for_json:        {rate(count, text_s):>10,.0f} records/s")
    print(f"pdsmem encode_dag_cbor only:     {rate(count, encode_s):>10,.0f} records/s")
    print(f"libipld encode + sha256:         {rate(count, base_s):>10,.0f} records/s")
    print(f"rate ratio cid_for_json/libipld: {base_s / ours_s:.2f}")
    print(f"rate ratio encode only/libipld:  {base_s / encode_s:.2f}")
    print(f"pdsmem decode_dag_cbor (strict): {rate(count, decode_s):>10,.0f} records/s")
    print(f"libipld decode_dag_cbor:         {rate(count, base_decode_s):>10,.0f} records/s")
    print(f"rate ratio decode/libipld:       {base_decode_s / decode_s:.2f}")
    print(f"mismatches (CIDs and values):   {mismatches}")
    if mismatches:
        raise SystemExit("pdsmem and libipld disagree")


if __name__ == "__main__":
    main()
