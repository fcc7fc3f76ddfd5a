"""Verifying a repository commit from the event stream: its operations, proven by inversion.

Scope: a ``#commit`` event of ``com.atproto.sync.subscribeRepos`` (sync 1.1) carries the new
commit, the record blocks it wrote, and the MST nodes on the paths its operations touched (a
partial tree). ``verify_commit_event`` checks the blocks against their CIDs and the commit (owner,
signature, rev after the last one seen), then proves the operations: starting from the new tree,
it undoes each operation on the partial tree and requires the result to be exactly the tree of
``prevData``, the previous commit's. A commit whose operations do not account for every change,
or that leaves out a node the proof needs, is refused (``VerificationError``); the caller then
reads the repository again the verified way instead of trusting the event.

How the inversion works, without MST insert and delete algorithms: the partial tree is
flattened into its entries and, where a node is absent, an opaque sub-tree (its CID and layer),
in key order. Undoing an operation edits that sequence; then the tree is rebuilt from it, as
``repo.build_mst`` lays a tree out, with each opaque sub-tree kept as it is. An edit that lands in
a gap holding an opaque sub-tree, or that would merge two of them, needs a node the proof left
out: it is refused, never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pdsmem.errors import VerificationError
from pdsmem.mapping.datamodel import Cid, encode_dag_cbor

from .car import BlockStore, read_car
from .repo import Commit, _load_node, common_prefix_len, key_depth, verify_commit

__all__ = ["CommitEvent", "Operation", "invert", "verify_commit_event"]


@dataclass(frozen=True)
class Operation:
    """One record operation of a commit: ``create`` and ``update`` name the new ``cid``,
    ``update`` and ``delete`` the ``prev`` one (sync 1.1)."""

    action: str
    path: str
    cid: Cid | None
    prev: Cid | None


@dataclass(frozen=True)
class CommitEvent:
    """A verified commit event: the commit, its operations, and the blocks it carried."""

    commit: Commit
    ops: list[Operation]
    blocks: BlockStore


@dataclass(frozen=True)
class _Opaque:
    """A sub-tree whose node the proof does not hold: its CID and its layer."""

    cid: bytes
    layer: int


_Item = tuple[bytes, bytes] | _Opaque  # an entry (key, value CID) or an opaque sub-tree


class InsufficientProof(VerificationError):
    """The commit's blocks lack an MST node the proof needs."""


def _flatten(store: BlockStore, root: bytes) -> list[_Item]:
    """The tree at ``root`` as entries and opaque sub-trees, in key order."""
    left, entries = _load_node(store, root, "commit proof")
    if not entries:
        if left is not None:
            raise VerificationError("MST root is an empty node that only points to a sub-tree")
        return []
    items: list[_Item] = []
    _expand(store, left, entries, key_depth(entries[0][0]), items)
    return items


def _expand(store: BlockStore, left: bytes | None, entries: list, layer: int, items: list[_Item]) -> None:
    for position, subtree in enumerate([left] + [tree for _, _, tree in entries]):
        if subtree is not None:
            if layer == 0:
                raise VerificationError("MST node at depth 0 links to a sub-tree")
            if subtree in store:
                child_left, child_entries = _load_node(store, subtree, "commit proof")
                _expand(store, child_left, child_entries, layer - 1, items)
            else:
                items.append(_Opaque(subtree, layer - 1))
        if position < len(entries):
            key, value, _ = entries[position]
            items.append((key, value))


def _position(items: list[_Item], key: bytes) -> tuple[int, bool]:
    """Where ``key`` is (index, True) or would go (index, False); an opaque sub-tree in the gap
    means the answer is in a node the proof does not hold."""
    entries = [(index, item[0]) for index, item in enumerate(items) if not isinstance(item, _Opaque)]
    # binary search over the entries only
    lo, hi = 0, len(entries)
    while lo < hi:
        mid = (lo + hi) // 2
        if entries[mid][1] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < len(entries) and entries[lo][1] == key:
        return entries[lo][0], True
    low = entries[lo - 1][0] + 1 if lo > 0 else 0
    high = entries[lo][0] if lo < len(entries) else len(items)
    if any(isinstance(items[index], _Opaque) for index in range(low, high)):
        raise InsufficientProof(f"the proof lacks the MST node where {key.decode(errors='replace')!r} would be")
    return high, False


def invert(store: BlockStore, data: Cid, ops: Iterable[Operation]) -> Cid:
    """The root of the tree ``data`` was before ``ops``: each undone on the partial tree."""
    ops = list(ops)
    paths = [op.path for op in ops]
    if len(set(paths)) != len(paths):
        raise VerificationError("a commit has at most one operation per record; this one repeats a path")
    items = _flatten(store, data.to_bytes())
    for op in ops:
        key = op.path.encode()
        index, found = _position(items, key)
        if op.action == "create" or op.action == "update":
            if not found or op.cid is None or items[index][1] != op.cid.to_bytes():  # type: ignore[index]
                raise VerificationError(f"{op.action} of {op.path}: the new tree does not hold that record CID")
            if op.action == "create":
                del items[index]
                if 0 < index < len(items) and isinstance(items[index - 1], _Opaque) and isinstance(items[index], _Opaque):
                    raise InsufficientProof(f"undoing the create of {op.path} merges sub-trees the proof lacks")
            else:
                if op.prev is None:
                    raise VerificationError(f"update of {op.path} names no previous CID")
                items[index] = (key, op.prev.to_bytes())
        elif op.action == "delete":
            if found:
                raise VerificationError(f"delete of {op.path}: the new tree still holds it")
            if op.prev is None:
                raise VerificationError(f"delete of {op.path} names no previous CID")
            items.insert(index, (key, op.prev.to_bytes()))
        else:
            raise VerificationError(f"unknown operation {op.action!r} on {op.path}")
    return Cid.from_bytes(_build(items, {}))


def _layer(item: _Item) -> int:
    return item.layer if isinstance(item, _Opaque) else key_depth(item[0])


def _build(items: list[_Item], blocks: dict[bytes, bytes]) -> bytes:
    """The root CID (binary) of the canonical tree of ``items``; node blocks go to ``blocks``."""
    if not items:
        return _node_cid({"e": [], "l": None}, blocks)
    top = max(_layer(item) for item in items)
    opaque_top = [item for item in items if isinstance(item, _Opaque) and item.layer == top]
    if opaque_top:
        # The tree before would be that sub-tree alone; but if its node holds no entry (only a
        # link further down), the tree is that link instead: without the node, nobody can tell.
        raise InsufficientProof("the tree before the commit is a sub-tree the proof lacks")
    return _node(items, top, blocks)


def _node(items: list[_Item], layer: int, blocks: dict[bytes, bytes]) -> bytes:
    groups: list[list[_Item]] = [[]]
    here: list[tuple[bytes, bytes]] = []
    for item in items:
        if not isinstance(item, _Opaque) and key_depth(item[0]) == layer:
            here.append(item)
            groups.append([])
        else:
            if _layer(item) >= layer:
                raise InsufficientProof("a sub-tree sits above its layer in the rebuilt tree")
            groups[-1].append(item)
    children = [_child(group, layer, blocks) for group in groups]
    entries = []
    previous = b""
    for (key, value), tree in zip(here, children[1:]):
        prefix = common_prefix_len(previous, key)
        entries.append({"p": prefix, "k": key[prefix:], "v": Cid.from_bytes(value),
                        "t": Cid.from_bytes(tree) if tree is not None else None})
        previous = key
    left = children[0]
    return _node_cid({"e": entries, "l": Cid.from_bytes(left) if left is not None else None}, blocks)


def _child(group: list[_Item], layer: int, blocks: dict[bytes, bytes]) -> bytes | None:
    if not group:
        return None
    opaque = [item for item in group if isinstance(item, _Opaque) and item.layer == layer - 1]
    if opaque:
        if len(group) > 1:
            raise InsufficientProof("the rebuilt tree merges a sub-tree the proof lacks")
        return opaque[0].cid
    return _node(group, layer - 1, blocks)


def _node_cid(node: dict[str, Any], blocks: dict[bytes, bytes]) -> bytes:
    data = encode_dag_cbor(node)
    cid = Cid.for_dag_cbor(data).to_bytes()
    blocks[cid] = data
    return cid


def verify_commit_event(
    body: Mapping[str, Any], *, did: str, signing_key: str, after_rev: str | None
) -> CommitEvent:
    """Verify a ``#commit`` event's body (decoded, IPLD form) for the repository ``did``.

    Checks, in order: the blocks against their CIDs (a CAR whose root is the commit), the commit
    (owner, signature with ``signing_key``, rev), a rev strictly after ``after_rev``, then the
    operations, proven against ``prevData`` by inversion. The caller closes ``blocks``.
    """
    if body.get("repo") != did:
        raise VerificationError(f"the event is for {body.get('repo')!r}, not {did}")
    if body.get("tooBig"):
        raise VerificationError("the commit is too big to carry its blocks (tooBig)")
    prev_data = body.get("prevData")
    if not isinstance(prev_data, Cid):
        raise VerificationError("the event has no prevData: its operations cannot be proven")
    raw = body.get("blocks")
    if not isinstance(raw, bytes):
        raise VerificationError("the event carries no blocks")
    root, store = read_car(raw)
    try:
        if root != body.get("commit"):
            raise VerificationError("the event's CAR root is not its commit")
        commit = verify_commit(store, root, did=did, signing_key_did_key=signing_key)
        if after_rev is not None and str(commit.rev) <= after_rev:
            raise VerificationError(f"rev {commit.rev} does not come after {after_rev}, the last one seen")
        if body.get("rev") != str(commit.rev):
            raise VerificationError("the event's rev is not its commit's")
        ops = [_operation(op) for op in body.get("ops") or []]
        if invert(store, commit.data, ops) != prev_data:
            raise VerificationError("the operations do not account for every change since prevData")
    except BaseException:
        store.close()
        raise
    return CommitEvent(commit, ops, store)


def _operation(op: Any) -> Operation:
    if not isinstance(op, Mapping) or not isinstance(op.get("path"), str):
        raise VerificationError("an operation without a path")
    cid, prev = op.get("cid"), op.get("prev")
    if (cid is not None and not isinstance(cid, Cid)) or (prev is not None and not isinstance(prev, Cid)):
        raise VerificationError(f"operation on {op['path']}: cid and prev must be links")
    action = op.get("action")
    if action not in ("create", "update", "delete"):
        raise VerificationError(f"unknown operation {action!r} on {op['path']}")
    if (action == "delete") != (cid is None):
        raise VerificationError(f"{action} of {op['path']}: a delete has no cid, others have one")
    return Operation(action, op["path"], cid, prev)
