"""Verified reading of an atproto repository (v3) from the blocks of a CAR archive.

Scope: the signed commit (fields, DID, signature against the account's signing key, rollback
against the last synced ``rev``), the Merkle Search Tree (every node present, keys in order, at
their proper depth, prefix compression exact, links well formed) and the records it points to.
Also builds an MST from ``(key, cid)`` pairs, exactly as the repository spec lays it out.

Structural failures (commit, signature, any MST node) raise ``VerificationError``: a missing
MST node never means fewer records. A single record that cannot be used (block missing, bad
DAG-CBOR, not a record, path not ``collection/rkey``) is reported as a ``RecordFailure`` and
the walk goes on. ``verify_repo`` checks the whole tree before yielding the first record.

Tricky bits:
- The depth of a key counts the leading zero bits of its SHA-256 in pairs (fanout 4); a node's
  entries all share one depth, and a sub-tree link goes exactly one level down (empty
  intermediate nodes keep that true); only an empty repository has an empty root.
- Signatures are 64-byte compact ``r||s`` with low S; DER-encoded or high-S ones are refused.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NamedTuple, Protocol

import libipld
from atproto_crypto.did import get_did_key, parse_did_key
from atproto_crypto.verify import verify_signature as _sdk_verify

from pdsmem.errors import DataModelError, InvalidSyntax, VerificationError
from pdsmem.mapping.datamodel import DAG_CBOR, Cid, decode_dag_cbor, encode_dag_cbor, ipld_to_json
from pdsmem.mapping.record_proof import proven_record
from pdsmem.mapping.syntax import AtUri, Did, Nsid, RecordKey, Tid

from .car import DEFAULT_MAX_BLOCK_SIZE, BlockStore, CarSource, read_car

__all__ = [
    "Commit", "OtherRecord", "RecordFailure", "RepoRecord", "VerifiedRepo", "build_mst", "check_mst", "common_prefix_len",
    "iter_records", "key_depth", "normalize_signing_key", "unsigned_commit_bytes",
    "verify_commit", "verify_repo", "verify_signature", "walk_mst",
]


@dataclass(frozen=True)
class Commit:
    """A verified v3 commit."""

    cid: Cid
    did: Did
    version: int
    data: Cid
    rev: Tid
    prev: Cid | None
    sig: bytes


@dataclass(frozen=True)
class RepoRecord:
    """A record read from a verified repository; ``value`` is in atproto JSON form."""

    uri: AtUri
    collection: Nsid
    rkey: RecordKey
    cid: Cid
    value: dict[str, Any]
    raw: bytes


@dataclass(frozen=True)
class RecordFailure:
    """A record that could not be used, and why; the other records are unaffected."""

    uri: str
    cid: Cid | None
    reason: str


# --- keys and signatures ----------------------------------------------------------------

_LEGACY_SUITES = ("EcdsaSecp256r1VerificationKey2019", "EcdsaSecp256k1VerificationKey2019")


def normalize_signing_key(key: str, *, suite: str | None = None) -> str:
    """A P-256 or K-256 public key as ``did:key:z…``.

    ``key`` is a ``did:key``, or a DID document's ``publicKeyMultibase`` whose verification
    method type is ``suite`` (``Multikey``, or one of the two legacy 2019 suites); with no
    ``suite`` (a key a person typed), whichever of them reads it, with or without ``did:key:``
    in front: the PLC directory's DID documents print the legacy form (``zRMB…``, an uncompressed
    point without multicodec), and people copy it after ``did:key:``.
    """
    if suite not in (None, "Multikey", *_LEGACY_SUITES):
        raise VerificationError(f"unsupported verification method type {suite!r}")
    if key.startswith("did:key:"):  # as it is; typed by a person, also a legacy form after did:key:
        legacy = key.removeprefix("did:key:")
        legacies = _LEGACY_SUITES if suite is None else ()
        attempts = [lambda: key, *[(lambda s=s: get_did_key(s, legacy)) for s in legacies]]
    else:
        attempts = [(lambda s=s: get_did_key(s, key)) for s in ([suite] if suite else ["Multikey", *_LEGACY_SUITES])]
    problem: Exception | None = None
    for attempt in attempts:
        try:
            did_key = attempt()
            parse_did_key(did_key or "")
            return str(did_key)
        except Exception as exc:  # the SDK raises several unrelated types for bad keys
            problem = problem or exc
    raise VerificationError(
        f"signing key {key!r} is not a P-256 or K-256 public key: {problem}",
        hint="expected a did:key or the publicKeyMultibase of the #atproto method",
    ) from problem


def verify_signature(did_key: str, data: bytes, signature: bytes) -> bool:
    """True if ``signature`` is a 64-byte compact, low-S ECDSA signature of ``data``.

    ``did_key`` comes from ``normalize_signing_key``.
    """
    if len(signature) != 64:
        return False  # DER or any other encoding is not valid in atproto
    return bool(_sdk_verify(did_key, data, signature))  # the SDK refuses high-S itself


# --- commit -----------------------------------------------------------------------------


def unsigned_commit_bytes(commit: dict[str, Any]) -> bytes:
    """The bytes a commit's signature covers: DAG-CBOR of the commit object without ``sig``."""
    return encode_dag_cbor({key: value for key, value in commit.items() if key != "sig"})


def verify_commit(
    store: BlockStore,
    root: Cid,
    *,
    did: str | Did,
    signing_key_did_key: str,
    min_rev: str | Tid | None = None,
) -> Commit:
    """Check the commit at ``root``: shape, owner ``did``, signature, and no rollback."""
    expected_did = Did.parse(did)
    key = normalize_signing_key(signing_key_did_key)
    path = f"commit {root}"

    def fail(message: str, hint: str | None = None) -> VerificationError:
        return VerificationError(message, did=expected_did, path=path, hint=hint)

    obj = _decoded(store, root, "the commit block", fail)
    if not isinstance(obj, dict):
        raise fail("the root block is not a commit object (expected a map)")
    missing = [name for name in ("did", "version", "data", "rev", "sig") if name not in obj]
    if missing:
        raise fail(f"the root block is not a commit: missing {', '.join(missing)}")
    if obj["version"] != 3:
        raise fail(f"commit version {obj['version']!r} is not supported (expected 3)")
    data, prev, sig, raw_rev = obj["data"], obj.get("prev"), obj["sig"], obj["rev"]
    if not isinstance(data, Cid) or not _is_dag_cbor_link(data):
        raise fail("commit 'data' must be a dag-cbor sha-256 CIDv1 link to the MST root")
    if prev is not None and not (isinstance(prev, Cid) and _is_dag_cbor_link(prev)):
        raise fail("commit 'prev' must be null or a dag-cbor sha-256 CIDv1 link")
    try:
        rev = Tid.parse(raw_rev)
    except InvalidSyntax as exc:
        raise fail(f"commit 'rev' {raw_rev!r} is not a TID: {exc.message}") from exc
    if obj["did"] != expected_did:
        raise fail(
            f"commit names {obj['did']!r}, expected {expected_did}",
            hint="the CAR belongs to another repository",
        )
    if not isinstance(sig, bytes):
        raise fail("commit 'sig' must be a byte string")
    if not verify_signature(key, unsigned_commit_bytes(obj), sig):
        raise fail(
            f"commit signature does not verify against signing key {key}",
            hint="the commit was signed by another key, or the DID document is out of date",
        )
    if rev.timestamp_us > (time.time() + MAX_CLOCK_SKEW) * 1_000_000:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(rev.timestamp_us / 1e6))
        raise fail(
            f"commit rev {rev} is dated {when}, in the future",
            hint="a repository from the future would refuse every later real commit as a rollback",
        )
    if min_rev is not None and rev < Tid.parse(min_rev):
        raise fail(
            f"rollback: commit rev {rev} is older than the already synced rev {min_rev}",
            hint="the server returned an older state of the repository",
        )
    return Commit(cid=root, did=expected_did, version=3, data=data, rev=rev, prev=prev, sig=sig)


# --- MST --------------------------------------------------------------------------------


def key_depth(key: str | bytes) -> int:
    """Depth of an MST key: leading zero bits of its SHA-256, counted in 2-bit chunks."""
    raw = key.encode() if isinstance(key, str) else key
    digest = int.from_bytes(hashlib.sha256(raw).digest(), "big")
    return (256 - digest.bit_length()) // 2


MAX_CLOCK_SKEW = 600  # seconds a commit's rev may be ahead of this machine's clock

# An MST key is a repository path: an NSID (at most 317 characters), '/', a record key (at
# most 512). Longer keys are refused before they are built.
MAX_KEY_BYTES = 1024


def common_prefix_len(left: str | bytes, right: str | bytes) -> int:
    """Number of leading bytes two keys share (MST prefix compression)."""
    a = left.encode() if isinstance(left, str) else left
    b = right.encode() if isinstance(right, str) else right
    size = 0
    for x, y in zip(a, b):
        if x != y:
            break
        size += 1
    return size


def _is_dag_cbor_link(cid: Cid) -> bool:
    return cid.is_atproto_blessed and cid.codec == DAG_CBOR


# A node as the walk uses it: its left sub-tree and its entries (full key, value, right
# sub-tree), every CID in binary form.
_Node = tuple[bytes | None, list[tuple[bytes, bytes, bytes | None]]]
_LINK_HEAD = bytes((1, DAG_CBOR, 0x12, 32))  # a dag-cbor sha-256 CIDv1, before its digest
_NODE_KEYS = frozenset(("e", "l"))
_ENTRY_KEYS = frozenset(("p", "k", "v", "t"))


def _decoded(store: BlockStore, cid: Cid, what: str, fail: Callable[[str], VerificationError], *,
             missing: str = "") -> Any:
    """The decoded block ``cid``; ``fail`` builds the error when it is absent or not DAG-CBOR."""
    if cid not in store:
        raise fail(f"{what} is missing from the CAR{missing}")
    try:
        return decode_dag_cbor(store.get(cid))
    except DataModelError as exc:
        raise fail(f"{what} is not valid DAG-CBOR: {exc.message}") from exc


def _is_link(value: object) -> bool:
    """A CID as libipld gives it (binary), of the one form an MST links with."""
    return type(value) is bytes and len(value) == 36 and value[:4] == _LINK_HEAD


def _fast_node(data: bytes) -> _Node | None:
    """The node in ``data``, decoded by libipld (compiled) and proven canonical by encoding it back
    to the same bytes; ``None`` when anything is unusual, for ``_strict_node`` to say what.

    Equally strict as the strict decoder for a node: the exact field names are required, so
    every value is type-checked below (no float or out-of-range integer can pass); libipld gives
    CIDs as bytes and encodes back as a CID any bytes that read as one, so byte-for-byte equality
    proves that ``l``, ``v``, ``t`` were links; a key suffix ``k`` starting with a printable
    byte cannot read as a CID, so it was a byte string.
    """
    try:
        node = libipld.decode_dag_cbor(data)
        if libipld.encode_dag_cbor(node) != data:
            return None
    except ValueError:
        return None
    if type(node) is not dict or node.keys() != _NODE_KEYS or type(node["e"]) is not list:
        return None
    left = node["l"]
    if left is not None and not _is_link(left):
        return None
    entries = []
    previous = b""
    for item in node["e"]:
        if type(item) is not dict or item.keys() != _ENTRY_KEYS:
            return None
        prefix, suffix, value, tree = item["p"], item["k"], item["v"], item["t"]
        if (type(prefix) is not int or not 0 <= prefix <= len(previous) or type(suffix) is not bytes
                or not suffix or not 0x20 <= suffix[0] < 0x7F or prefix + len(suffix) > MAX_KEY_BYTES
                or not _is_link(value) or (tree is not None and not _is_link(tree))):
            return None
        if prefix < len(previous) and previous[prefix] == suffix[0]:
            return None  # the prefix is shorter than what the keys share
        key = previous[:prefix] + suffix
        entries.append((key, value, tree))
        previous = key
    return left, entries


def _strict_node(data: bytes, fail: Callable[[str], VerificationError]) -> _Node:
    """The node in ``data``, read with the strict decoder; every problem raised through ``fail``."""
    try:
        node = decode_dag_cbor(data)
    except DataModelError as exc:
        raise fail(f"MST node is not valid DAG-CBOR: {exc.message}") from exc
    if not isinstance(node, dict) or not isinstance(node.get("e"), list):
        raise fail("MST node must be a map with an 'e' list")
    left = node.get("l")
    if left is not None and not (isinstance(left, Cid) and _is_dag_cbor_link(left)):
        raise fail("MST node 'l' must be null or a dag-cbor sha-256 CIDv1 link")
    entries = []
    previous = b""
    for index, item in enumerate(node["e"]):
        if not isinstance(item, dict):
            raise fail(f"entry {index} must be a map")
        prefix, suffix, value, tree = item.get("p"), item.get("k"), item.get("v"), item.get("t")
        if not isinstance(prefix, int) or isinstance(prefix, bool) or prefix < 0:
            raise fail(f"entry {index}: 'p' must be a non-negative integer")
        if not isinstance(suffix, bytes) or not isinstance(value, Cid):
            raise fail(f"entry {index}: 'k' must be bytes and 'v' a CID link")
        if tree is not None and not (isinstance(tree, Cid) and _is_dag_cbor_link(tree)):
            raise fail(f"entry {index}: 't' must be null or a dag-cbor sha-256 CIDv1 link")
        if prefix > len(previous):
            raise fail(f"entry {index}: prefix {prefix} is longer than the previous key")
        if prefix + len(suffix) > MAX_KEY_BYTES:
            raise fail(
                f"entry {index}: a key of {prefix + len(suffix):,} bytes; a repository path "
                f"(collection/record key) has at most {MAX_KEY_BYTES:,}"
            )
        key = previous[:prefix] + suffix
        if not key:
            raise fail(f"entry {index}: empty key")
        if prefix != common_prefix_len(previous, key):
            raise fail(f"entry {index}: prefix length {prefix} is not the shared prefix")
        entries.append((key, value.to_bytes(), tree.to_bytes() if tree is not None else None))
        previous = key
    return (left.to_bytes() if left is not None else None), entries


class NodeSummary(NamedTuple):
    """What a sub-tree of an MST holds, as a walk that checked all of it found: the layer it was
    checked at, its first and last keys, and how many entries and nodes it has. A node's CID
    names its bytes, and so its whole sub-tree: a later walk that meets the same CID at the same
    layer may place the sub-tree by its summary (its keys after the last key so far, the last key
    after them) instead of walking it again (``check_mst``)."""

    layer: int
    first: bytes
    last: bytes
    entries: int
    nodes: int


class KnownNodes(Protocol):
    """MST nodes kept from an earlier, verified read of the same repository (``State.known_nodes``)."""

    def block(self, cid: bytes) -> bytes | None:
        """The bytes of node ``cid`` (binary CID), or None; the walk checks them against the CID."""

    def summary(self, cid: bytes) -> tuple[NodeSummary, bytes] | None:
        """What the walk that checked node ``cid`` found under it, and the node's bytes, or None.
        The walk checks the bytes against the CID and the summary against the node."""


def _summary_fits(summary: NodeSummary, data: bytes) -> bool:
    """Whether a kept summary agrees with its node (``data``, already checked against its CID), as
    far as the node alone can tell: its keys at the summary's layer and within its first and last
    keys, the first and last keys exact where the node holds them, and at least its own entries. A
    damaged or edited state database is then, at worst, a sub-tree walked again."""
    if not summary.first <= summary.last or summary.nodes < 1:
        return False
    node = _fast_node(data)
    if node is None:  # not proven by the fast path: walk it, the strict reading decides
        return False
    left, entries = node
    if not entries:
        return left is not None
    first, last = entries[0][0], entries[-1][0]
    return (all(key_depth(key) == summary.layer for key, _, _ in entries)
            and summary.first <= first and last <= summary.last and summary.entries >= len(entries)
            and (left is not None or first == summary.first) and (entries[-1][2] is not None or last == summary.last))


def _load_node(store: BlockStore, cid: bytes, where: str, known: KnownNodes | None = None) -> _Node:
    if cid not in store and known is not None:
        data = known.block(cid)
        if data is not None and Cid.for_dag_cbor(data).to_bytes() == cid:
            store.add(cid, data)
    if cid not in store:
        raise VerificationError(
            "MST node is missing from the CAR; the repository is incomplete",
            path=f"MST node {Cid.from_bytes(cid)} ({where})",
        )
    data = store.get(cid)
    node = _fast_node(data)
    if node is not None:
        return node

    def fail(message: str) -> VerificationError:
        return VerificationError(message, path=f"MST node {Cid.from_bytes(cid)} ({where})")

    return _strict_node(data, fail)


def _shown(key: bytes) -> str:
    """An MST key as a message shows it: its text in quotes, bytes that are not UTF-8 escaped."""
    return json.dumps(key[:200].decode("utf-8", "backslashreplace"), ensure_ascii=False)


def walk_mst(store: BlockStore, data_cid: Cid) -> Iterator[tuple[str, Cid]]:
    """Every ``(key, record cid)`` of the tree at ``data_cid``, in key order, checked.

    The whole tree is checked before the first pair is yielded.
    """
    entries: list[tuple[bytes, bytes]] = []
    check_mst(store, data_cid, entries.append)
    for key, value in entries:
        yield key.decode(), Cid.from_bytes(value)


def check_mst(
    store: BlockStore,
    data_cid: Cid,
    keep: Callable[[tuple[bytes, bytes]], object],
    nodes: list[bytes] | None = None,
    *,
    known: KnownNodes | None = None,
    wanted: bytes | None = None,
    summaries: dict[bytes, NodeSummary] | None = None,
) -> int:
    """Check the whole tree at ``data_cid``; hand each ``(key, binary record cid)`` to ``keep`` in
    key order; add the binary CID of each node walked to ``nodes`` and its ``NodeSummary`` to
    ``summaries`` when given; return the number of entries.

    ``known``: nodes kept from an earlier read, taken where ``store`` lacks one. With ``wanted``,
    a key prefix, only entries with that prefix reach ``keep``, and a sub-tree ``known`` has a
    summary of, at the layer it sits at here, whose keys all lie outside the prefix, is placed by
    that summary instead of walked: a diff's walk then follows the changed paths and the wanted
    range, not the whole tree."""
    root = data_cid.to_bytes()
    left, entries = _load_node(store, root, "root", known)
    if nodes is not None:
        nodes.append(root)
    if not entries:
        if left is not None:
            raise VerificationError(
                "MST root is an empty node that only points to a sub-tree", path="MST root"
            )
        return 0
    walk = _Walk(store, keep, nodes, known, wanted, summaries)
    layer = key_depth(entries[0][0])
    first = walk.node(root, left, entries, layer)
    if summaries is not None:
        summaries[root] = NodeSummary(layer, first, walk.last, walk.count, walk.tree_nodes)
    return walk.count


class _Walk:
    """One in-order walk of a tree: the checks that span nodes (depth, order), with no generator
    frames between an entry and its caller."""

    def __init__(
        self,
        store: BlockStore,
        keep: Callable[[tuple[bytes, bytes]], object],
        nodes: list[bytes] | None,
        known: KnownNodes | None = None,
        wanted: bytes | None = None,
        summaries: dict[bytes, NodeSummary] | None = None,
    ) -> None:
        self.store, self.nodes, self.known, self.summaries = store, nodes, known, summaries
        if wanted is not None:
            self.keep: Callable[[tuple[bytes, bytes]], object] = (
                lambda entry: keep(entry) if entry[0].startswith(wanted) else None)
            self.wanted: tuple[bytes, bytes] | None = (wanted, wanted[:-1] + bytes([wanted[-1] + 1]))
        else:
            self.keep, self.wanted = keep, None
        self.last = b""
        self.count = 0
        self.tree_nodes = 0  # nodes of the tree, walked or placed by their summary

    def node(self, cid: bytes, left: bytes | None, entries: list[tuple[bytes, bytes, bytes | None]],
             layer: int) -> bytes:
        """Walk one node and what is below it; return its sub-tree's first key."""
        self.tree_nodes += 1
        first = self.below(cid, left, layer) if left is not None else entries[0][0]
        for key, value, tree in entries:
            if key_depth(key) != layer:
                raise self.error(
                    cid, key, f"key has depth {key_depth(key)} but sits in a node of depth {layer}"
                )
            if key <= self.last:
                raise self.error(cid, key, f"keys out of order: {_shown(key)} after {_shown(self.last)}")
            try:
                key.decode()
            except UnicodeDecodeError:
                raise self.error(cid, key, "MST key is not UTF-8") from None
            self.last = key
            self.count += 1
            self.keep((key, value))
            if tree is not None:
                self.below(cid, tree, layer)
        return first

    def below(self, cid: bytes, subtree: bytes, layer: int) -> bytes:
        """Walk the sub-tree ``subtree`` of node ``cid`` (at ``layer``), or place it by its summary;
        return its first key."""
        if layer == 0:
            raise VerificationError("MST node at depth 0 links to a sub-tree", path=f"MST node {Cid.from_bytes(cid)}")
        kept = self.known.summary(subtree) if self.wanted is not None and self.known is not None else None
        if kept is not None and Cid.for_dag_cbor(kept[1]).to_bytes() == subtree:
            known, data = kept
            self.store.add(subtree, data)  # walked or not, the node is not read a second time
            before = known.last < self.wanted[0]
            if known.layer == layer - 1 and (before or known.first >= self.wanted[1]) \
                    and _summary_fits(known, data) \
                    and self.edge_key(subtree, last=before) == (known.last if before else known.first):
                if known.first <= self.last:
                    raise self.error(cid, known.first, f"keys out of order: {_shown(known.first)} after "
                                                       f"{_shown(self.last)}")
                self.last = known.last
                self.count += known.entries
                self.tree_nodes += known.nodes
                return known.first
        left, entries = _load_node(self.store, subtree, f"under {Cid.from_bytes(cid)}", self.known)
        if self.nodes is not None:
            self.nodes.append(subtree)
        if not entries and left is None:
            raise VerificationError("empty MST node below the root", path=f"MST node {Cid.from_bytes(subtree)}")
        count, tree_nodes = self.count, self.tree_nodes
        first = self.node(subtree, left, entries, layer - 1)
        if self.summaries is not None:
            self.summaries[subtree] = NodeSummary(
                layer - 1, first, self.last, self.count - count, self.tree_nodes - tree_nodes)
        return first

    def edge_key(self, cid: bytes, *, last: bool) -> bytes | None:
        """The last (or first) key of the sub-tree at ``cid``, read down its rightmost (leftmost)
        links, each node checked against its CID: what proves a sub-tree placed by its summary to
        hold no wanted key, whatever the summary says. None where a node is missing or unreadable
        (the sub-tree is then walked, and the walk says what is wrong)."""
        for _ in range(64):  # a tree's height; CIDs make a cycle impossible, this bounds a bug
            try:
                left, entries = _load_node(self.store, cid, "", self.known)
            except VerificationError:
                return None
            if last and entries and entries[-1][2] is None:
                return entries[-1][0]
            if not last and left is None:
                return entries[0][0] if entries else None
            down = (entries[-1][2] if entries else left) if last else left
            if down is None:
                return None
            cid = down
        return None

    @staticmethod
    def error(cid: bytes, key: bytes, message: str) -> VerificationError:
        return VerificationError(message, path=f"MST node {Cid.from_bytes(cid)}, key {_shown(key)}")


def build_mst(entries: Iterable[tuple[str, Cid]]) -> tuple[Cid, dict[Cid, bytes]]:
    """Build the MST holding ``entries``; return its root CID and every node block."""
    items = sorted(((key.encode(), cid) for key, cid in entries), key=lambda item: item[0])
    for index, (key, _) in enumerate(items):
        if not key or (index and items[index - 1][0] == key):
            raise ValueError(f"MST keys must be non-empty and distinct, got {key!r} twice or empty")
    blocks: dict[Cid, bytes] = {}
    leveled = [(key, cid, key_depth(key)) for key, cid in items]
    top = max((depth for _, _, depth in leveled), default=0)
    return _build_node(leveled, top, blocks), blocks


def _build_node(items: list[tuple[bytes, Cid, int]], layer: int, blocks: dict[Cid, bytes]) -> Cid:
    before: list[tuple[bytes, Cid, int]] = []
    here: list[tuple[bytes, Cid, list[tuple[bytes, Cid, int]]]] = []
    for item in items:
        if item[2] == layer:
            here.append((item[0], item[1], []))
        else:
            (here[-1][2] if here else before).append(item)
    entries = []
    previous = b""
    for key, value, after in here:
        prefix = common_prefix_len(previous, key)
        tree = _build_node(after, layer - 1, blocks) if after else None
        entries.append({"p": prefix, "k": key[prefix:], "v": value, "t": tree})
        previous = key
    left = _build_node(before, layer - 1, blocks) if before else None
    data = encode_dag_cbor({"e": entries, "l": left})
    cid = Cid.for_dag_cbor(data)
    blocks[cid] = data
    return cid


# --- records ----------------------------------------------------------------------------


def _split_path(key: str) -> tuple[Nsid, RecordKey]:
    collection, slash, rkey = key.partition("/")
    if not slash or "/" in rkey:
        raise InvalidSyntax(f"repository path {key!r} is not 'collection/rkey'")
    return Nsid.parse(collection), RecordKey.parse(rkey)


def iter_records(
    store: BlockStore, commit: Commit, *, collection: str | None = None
) -> Iterator[RepoRecord | RecordFailure]:
    """Each record of ``commit`` (only ``collection``'s if given), or why it cannot be used."""
    entries = _kept_entries(store, commit.data, collection)[0]
    for key, cid in entries:
        yield _record(store, commit.did, key, cid)


def _kept_entries(
    store: BlockStore, data_cid: Cid, collection: str | None, nodes: list[bytes] | None = None, **walk: Any
) -> tuple[list[tuple[bytes, bytes]], int]:
    """Check the whole tree; its entries (of ``collection`` only, if given) and their number;
    the binary CIDs of its nodes into ``nodes`` when given; ``walk``: ``check_mst``'s ``known``
    and ``summaries``."""
    kept: list[tuple[bytes, bytes]] = []
    wanted = None if collection is None else (collection + "/").encode()
    return kept, check_mst(store, data_cid, kept.append, nodes, wanted=wanted, **walk)


def _record(store: BlockStore, did: Did, key: bytes, cid: bytes) -> RepoRecord | RecordFailure:
    path = key.decode()
    try:
        coll, rkey = _split_path(path)
    except InvalidSyntax as exc:
        return RecordFailure(f"at://{did}/{path}", Cid.from_bytes(cid), f"bad repository path: {exc.message}")
    return _read_record(store, AtUri.build(did, coll, rkey), coll, rkey, Cid.from_bytes(cid))


def _read_record(
    store: BlockStore, uri: AtUri, coll: Nsid, rkey: RecordKey, cid: Cid
) -> RepoRecord | RecordFailure:
    if not _is_dag_cbor_link(cid):
        return RecordFailure(uri, cid, f"record CID {cid} is not a dag-cbor sha-256 CIDv1")
    if cid not in store:
        return RecordFailure(uri, cid, f"record block {cid} is missing from the CAR")
    raw = store.get(cid)
    try:
        value = decode_dag_cbor(raw)
    except DataModelError as exc:
        return RecordFailure(uri, cid, f"record block is not valid DAG-CBOR: {exc.message}")
    if not isinstance(value, dict):
        return RecordFailure(uri, cid, "record is not a map")
    if not isinstance(value.get("$type"), str):
        return RecordFailure(uri, cid, "record has no '$type' string")
    try:
        json_value = ipld_to_json(value)
    except DataModelError as exc:
        return RecordFailure(uri, cid, f"record is outside the data model: {exc}")
    return RepoRecord(uri, coll, rkey, cid, json_value, raw)


@dataclass(frozen=True)
class OtherRecord:
    """A record of a collection pdsmem does not map whose ``$type`` is not its collection."""

    uri: str
    collection: str
    type: str


@functools.lru_cache(maxsize=1024)
def _is_collection(name: str) -> bool:
    try:
        Nsid.parse(name)
    except InvalidSyntax:
        return False
    return True


def _is_rkey(rkey: str) -> bool:
    try:
        RecordKey.parse(rkey)
    except InvalidSyntax:
        return False
    return True  # a record key has no "/": its syntax allows none


def _other_record(
    store: BlockStore, did: Did, key: bytes, cid: bytes
) -> OtherRecord | RepoRecord | RecordFailure | None:
    """A record pdsmem does not map: its block, then strict DAG-CBOR, a map, and its ``$type``
    (``None`` when all is well, an ``OtherRecord`` when its ``$type`` is not its collection's);
    proven by ``proven_record`` (compiled code and byte searches), and the strict path
    (``_record``) takes over whenever that proof fails."""
    if cid[:4] == _LINK_HEAD and cid in store:
        value = proven_record(store.get(cid))
        if value is not None and type(value.get("$type")) is str and value["$type"] not in ("", "blob"):
            path = key.decode()
            collection, slash, rkey = path.partition("/")
            if slash and _is_collection(collection) and _is_rkey(rkey):
                kind = value["$type"]
                return None if kind == collection else OtherRecord(f"at://{did}/{path}", collection, kind)
    return _record(store, did, key, cid)


# --- one call ---------------------------------------------------------------------------


class VerifiedRepo:
    """A repository whose CAR, commit and whole MST have been checked; close when done.

    Made by ``verify_repo`` (or ``open_tree``), which walks the tree once and keeps the entries
    of ``collection`` (every entry when it is ``None``). With ``known`` nodes and a ``collection``,
    the sub-trees ``known`` has summaries of that hold none of its entries are placed by their
    summaries, not walked (``check_mst``); ``complete`` says whether every node was walked.
    ``summarize``: keep the summary of every node walked, for ``mst_nodes`` (with ``known``, always).
    """

    def __init__(
        self, store: BlockStore, commit: Commit, collection: str | None = None, known: KnownNodes | None = None,
        *, summarize: bool = False,
    ) -> None:
        self.store = store
        self.commit = commit
        self.collection = collection
        self._nodes: list[bytes] = []  # the binary CID of every node walked, in the order met
        self._summaries: dict[bytes, NodeSummary] | None = {} if summarize or known is not None else None
        self._entries, self.record_count = _kept_entries(
            store, commit.data, collection, self._nodes, known=known, summaries=self._summaries)
        root = self._summaries.get(commit.data.to_bytes()) if self._summaries is not None else None
        self.tree_nodes = root.nodes if root is not None else len(self._nodes)  # none placed without summaries
        self.complete = len(self._nodes) == self.tree_nodes

    def mst_nodes(self) -> Iterator[tuple[Cid, bytes, NodeSummary | None]]:
        """The CID, bytes and summary of every node walked (every node of the tree when
        ``complete``); an empty root has no summary."""
        for cid in self._nodes:
            yield Cid.from_bytes(cid), self.store.get(cid), self._summaries.get(cid) if self._summaries else None

    def records(self, *, collection: str | None = None) -> Iterator[RepoRecord | RecordFailure]:
        """Each record (of ``collection``, else of the one given to ``verify_repo``, else all)."""
        wanted = collection if collection is not None else self.collection
        if self.collection is not None and wanted != self.collection:
            if not self.complete:
                raise ValueError(f"the tree was read for {self.collection} with kept summaries: {wanted}'s "
                                 "sub-trees were not walked (read it without known nodes)")
            return iter_records(self.store, self.commit, collection=wanted)
        prefix = (wanted + "/").encode() if wanted is not None else b""
        did = self.commit.did
        return (_record(self.store, did, key, cid) for key, cid in self._entries if key.startswith(prefix))

    def audit(self, mapped: str) -> Iterator[RepoRecord | OtherRecord | RecordFailure]:
        """For ``pdsmem verify``: every record of ``mapped`` read in full (strict DAG-CBOR, then
        the JSON form); of the others, only those that fail ``_other_record``'s checks."""
        if self.collection is not None:
            raise ValueError("audit needs a repository opened with every entry kept")
        prefix = (mapped + "/").encode()
        did = self.commit.did
        for key, cid in self._entries:
            if key.startswith(prefix):
                yield _record(self.store, did, key, cid)
            elif (problem := _other_record(self.store, did, key, cid)) is not None:
                yield problem

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> VerifiedRepo:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def verify_repo(
    source: CarSource,
    *,
    did: str | Did,
    signing_key: str,
    min_rev: str | Tid | None = None,
    collection: str | None = None,
    max_block_size: int = DEFAULT_MAX_BLOCK_SIZE,
    known_nodes: KnownNodes | None = None,
    summarize: bool = False,
) -> VerifiedRepo:
    """Read a CAR (streamed body or file), verify blocks, commit and whole MST; return the repo.

    ``known_nodes`` are MST nodes kept from an earlier read: a ``since`` diff leaves out the
    nodes that did not change, and the tree is walked through them (each is checked against its
    CID when taken, so where it came from does not matter), or, outside ``collection``, placed by
    their summaries (``check_mst``); ``summarize`` keeps the summaries of the nodes walked, for
    keeping them (they cost memory: about 250 bytes a node). Use the result as a context manager;
    its ``records()`` yields each record or its failure.
    """
    store: BlockStore | None = None
    try:
        root, store = read_car(source, max_block_size=max_block_size)
        commit = verify_commit(
            store, root, did=did, signing_key_did_key=signing_key, min_rev=min_rev
        )
        return VerifiedRepo(store, commit, collection, known_nodes, summarize=summarize)
    except BaseException as exc:
        if store is not None:
            store.close()
        if isinstance(exc, VerificationError) and exc.did is None:
            exc.did = str(did)
        raise
