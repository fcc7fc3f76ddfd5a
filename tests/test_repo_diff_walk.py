"""The walk of a diff's tree: sub-trees kept from an earlier read, and placed by their summaries.

An account holds posts, likes and follows by the hundred thousand and a few memory records. An
import after a change walks the changed paths and the memory records' range; an unchanged
sub-tree that holds no memory record is placed by the summary its first walk kept (its layer,
first and last keys, entries and nodes), with the checks that span nodes still made.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from devkit.repo_builder import COLLECTION, tid

from pdsmem.bridge.atproto.car import BlockStore
from pdsmem.bridge.atproto.repo import NodeSummary, build_mst, check_mst
from pdsmem.errors import VerificationError
from pdsmem.mapping.datamodel import Cid, decode_dag_cbor, encode_dag_cbor

WANTED = f"{COLLECTION}/".encode()
OTHERS = ("app.bsky.feed.like", "app.bsky.feed.post", "app.bsky.graph.follow", "xyz.statusphere.status")


def leaf(text: str) -> Cid:
    return Cid.for_dag_cbor(encode_dag_cbor({"text": text}))


def account(others: int, memories: int) -> dict[str, Cid]:
    """Paths to record CIDs: ``others`` records across four other collections (one after the memory
    records), and ``memories`` memory records."""
    micros = 1_700_000_000_000_000
    paths = {}
    for n in range(others):
        path = f"{OTHERS[n % len(OTHERS)]}/{tid(micros + n * 1_000_003)}"
        paths[path] = leaf(path)
    for n in range(memories):
        path = f"{COLLECTION}/{tid(micros + n * 7_000_001)}"
        paths[path] = leaf(path)
    return paths


def blocks_of(paths: dict[str, Cid]) -> tuple[Cid, dict[bytes, bytes]]:
    root, blocks = build_mst(paths.items())
    return root, {cid.to_bytes(): data for cid, data in blocks.items()}


def store_of(blocks: dict[bytes, bytes]) -> BlockStore:
    store = BlockStore()
    for cid, data in blocks.items():
        store.add(cid, data)
    return store


@dataclass
class Kept:
    """Nodes kept from an earlier read (``repo.KnownNodes``), counting the blocks read."""

    blocks: dict[bytes, bytes]
    summaries: dict[bytes, NodeSummary]
    read: int = 0
    asked: list[bytes] = field(default_factory=list)

    def block(self, cid: bytes) -> bytes | None:
        self.read += 1
        return self.blocks.get(cid)

    def summary(self, cid: bytes) -> tuple[NodeSummary, bytes] | None:
        self.asked.append(cid)
        summary = self.summaries.get(cid)
        return (summary, self.blocks[cid]) if summary is not None else None


@dataclass
class Walked:
    entries: list[tuple[bytes, bytes]]
    count: int
    nodes: list[bytes]
    summaries: dict[bytes, NodeSummary]


def walk(root: Cid, store: BlockStore, known: Kept | None = None, wanted: bytes | None = WANTED) -> Walked:
    entries: list[tuple[bytes, bytes]] = []
    nodes: list[bytes] = []
    summaries: dict[bytes, NodeSummary] = {}
    count = check_mst(store, root, entries.append, nodes, known=known, wanted=wanted, summaries=summaries)
    return Walked(entries, count, nodes, summaries)


@pytest.fixture(scope="module")
def before_and_after() -> tuple[tuple[Cid, dict[bytes, bytes]], tuple[Cid, dict[bytes, bytes]], Walked]:
    """An account of 3,000 other records and 40 memory records, then the same after a like
    changed, a post deleted, a memory record added and one changed; the first tree's full walk."""
    paths = account(3000, 40)
    first = blocks_of(paths)
    with store_of(first[1]) as store:
        walked = walk(first[0], store)
    changed = dict(paths)
    likes = [path for path in paths if path.startswith("app.bsky.feed.like/")]
    posts = [path for path in paths if path.startswith("app.bsky.feed.post/")]
    memories = [path for path in paths if path.startswith(COLLECTION)]
    changed[likes[700]] = leaf("liked again")
    del changed[posts[300]]
    changed[f"{COLLECTION}/{tid(1_800_000_000_000_000)}"] = leaf("new memory")
    changed[memories[5]] = leaf("memory edited")
    return first, blocks_of(changed), walked


def test_a_diff_walk_places_unchanged_subtrees_and_finds_what_a_full_walk_finds(before_and_after) -> None:
    (_, first_blocks), (root, blocks), first = before_and_after
    with store_of(blocks) as store:
        full = walk(root, store)
    kept = Kept(first_blocks, first.summaries)
    diff = {cid: data for cid, data in blocks.items() if cid not in first_blocks}  # what getRepo?since= sends
    with store_of(diff) as store:
        placed = walk(root, store, kept)
    assert placed.entries == full.entries and len(full.entries) == 41  # every memory record, in order
    assert placed.count == full.count == 3040
    assert placed.summaries[root.to_bytes()] == full.summaries[root.to_bytes()]
    assert all(full.summaries[cid] == summary for cid, summary in placed.summaries.items())
    # The walk followed the changed paths and the memory records' range: a small part of the tree.
    assert len(full.nodes) > 600 and len(placed.nodes) < len(full.nodes) / 5, (len(placed.nodes), len(full.nodes))
    assert kept.read < len(full.nodes) / 4  # the nodes walked, and the edges that prove placed sub-trees outside


def test_without_a_wanted_collection_every_node_is_walked(before_and_after) -> None:
    """``pdsmem verify`` and a read of every collection check the whole tree, summaries or not."""
    (_, first_blocks), (root, blocks), first = before_and_after
    diff = {cid: data for cid, data in blocks.items() if cid not in first_blocks}
    with store_of(diff) as store:
        walked = walk(root, store, Kept(first_blocks, first.summaries), wanted=None)
    with store_of(blocks) as store:
        assert len(walked.nodes) == len(walk(root, store, wanted=None).nodes)


def _outside(summary: NodeSummary | None) -> bool:
    return summary is not None and (summary.last < WANTED or summary.first >= WANTED[:-1] + b"0")


def _path_to(blocks: dict[bytes, bytes], cid: Cid, summaries: dict[bytes, NodeSummary], found) -> list | None:
    """The nodes from ``cid`` down to the first node ``found`` says yes to, each with the link
    (``"l"`` or an entry's index) the path follows out of it."""
    node = decode_dag_cbor(blocks[cid.to_bytes()])
    if found(node):
        return [(node, None)]
    links = [("l", node["l"])] + [(n, entry["t"]) for n, entry in enumerate(node["e"])]
    for slot, link in links:
        if link is not None and not _outside(summaries.get(link.to_bytes())):  # down the memory range's side
            continue
        if link is not None and (below := _path_to(blocks, link, summaries, found)) is not None:
            return [(node, slot)] + below
    return None


def _forged(path: list, change) -> tuple[Cid, dict[bytes, bytes]]:
    """The tree with ``change`` made to the last node of ``path``, and each node above it written
    again to link to the new one: the new root and the new blocks."""
    new_blocks: dict[bytes, bytes] = {}
    node, _ = path[-1]
    change(node)
    for parent, slot in reversed(path[:-1]):
        data = encode_dag_cbor(node)
        cid = Cid.for_dag_cbor(data)
        new_blocks[cid.to_bytes()] = data
        if slot == "l":
            parent["l"] = cid
        else:
            parent["e"][slot]["t"] = cid
        node = parent
    data = encode_dag_cbor(node)
    root = Cid.for_dag_cbor(data)
    new_blocks[root.to_bytes()] = data
    return root, new_blocks


def test_placed_subtrees_out_of_order_are_refused(before_and_after) -> None:
    """A PDS that moves kept sub-trees around in a new tree: their keys are out of order, which the
    summaries show without walking them."""
    (first_root, first_blocks), _, first = before_and_after

    def subtrees(node: dict) -> list[int]:
        return [n for n, entry in enumerate(node["e"]) if _outside(first.summaries.get(
            entry["t"].to_bytes() if entry["t"] is not None else b""))]

    path = _path_to(first_blocks, first_root, first.summaries, lambda node: len(subtrees(node)) >= 2)
    picks = subtrees(path[-1][0])

    def swap(node: dict) -> None:
        a, b = picks[0], picks[-1]
        node["e"][a]["t"], node["e"][b]["t"] = node["e"][b]["t"], node["e"][a]["t"]

    forged, new_blocks = _forged(path, swap)
    with store_of(new_blocks) as store, pytest.raises(VerificationError, match="keys out of order"):
        walk(forged, store, Kept(first_blocks, first.summaries))
    with store_of({**first_blocks, **new_blocks}) as store, pytest.raises(VerificationError, match="out of order"):
        walk(forged, store)  # as a full walk finds it


def test_a_kept_subtree_met_at_another_layer_is_walked_and_refused(before_and_after) -> None:
    """A summary holds for the layer it was checked at: a sub-tree one layer lower than its place
    says is walked, and its keys' depth refuses it."""
    (first_root, first_blocks), _, first = before_and_after

    def lower_of(link: Cid | None) -> Cid | None:
        """A sub-tree of the sub-tree at ``link``, one layer lower."""
        if link is None or not _outside(first.summaries.get(link.to_bytes())):
            return None
        below = decode_dag_cbor(first_blocks[link.to_bytes()])
        return next((down for down in [below["l"]] + [entry["t"] for entry in below["e"]] if down is not None), None)

    path = _path_to(first_blocks, first_root, first.summaries,
                    lambda node: any(lower_of(entry["t"]) is not None for entry in node["e"]))
    pick = next(n for n, entry in enumerate(path[-1][0]["e"]) if lower_of(entry["t"]) is not None)
    lower = lower_of(path[-1][0]["e"][pick]["t"])
    assert first.summaries[lower.to_bytes()].layer == first.summaries[path[-1][0]["e"][pick]["t"].to_bytes()].layer - 1

    def put_lower(node: dict) -> None:
        node["e"][pick]["t"] = lower

    forged, new_blocks = _forged(path, put_lower)
    kept = Kept(first_blocks, first.summaries)
    with store_of(new_blocks) as store, pytest.raises(VerificationError, match="depth"):
        walk(forged, store, kept)
    assert kept.read > 0  # walked, not placed


def test_a_kept_block_that_does_not_match_its_cid_is_not_used(before_and_after) -> None:
    """Kept blocks are checked against their CIDs when taken: a damaged state database means a
    missing node (and a full read), never a wrong tree."""
    (_, first_blocks), (root, blocks), first = before_and_after
    diff = {cid: data for cid, data in blocks.items() if cid not in first_blocks}
    damaged = {cid: data[:-1] + bytes([data[-1] ^ 1]) for cid, data in first_blocks.items()}
    with store_of(diff) as store, pytest.raises(VerificationError, match="missing"):
        walk(root, store, Kept(damaged, {}))


_BEFORE = WANTED[:-1] + b"."  # sorts just before the memory records' prefix


@pytest.mark.parametrize("damage", [
    # a sub-tree that holds memory records said to end before them: it would hide them
    lambda s: s._replace(last=_BEFORE) if s.first < _BEFORE and s.last >= WANTED else s,
    lambda s: s._replace(first=WANTED[:-1] + b"0") if s.last >= WANTED[:-1] + b"0" > s.first else s,
    lambda s: s._replace(last=s.first),  # a range too short: the node's own keys lie past it
    lambda s: s._replace(first=s.last + b"~", last=s.last),  # first after last
    lambda s: s._replace(layer=s.layer + 1),
    lambda s: s._replace(nodes=0),
], ids=["said to end before the memory records", "said to start after them", "short range", "first after last",
        "other layer", "no nodes"])
def test_a_summary_that_does_not_agree_with_its_node_is_not_used(before_and_after, damage) -> None:
    """Summaries come from the state database: one its node contradicts (damaged, or edited) has
    the sub-tree walked, and the walk finds what a full walk finds."""
    (_, first_blocks), (root, blocks), first = before_and_after
    with store_of(blocks) as store:
        full = walk(root, store)
    diff = {cid: data for cid, data in blocks.items() if cid not in first_blocks}
    damaged = {cid: damage(summary) for cid, summary in first.summaries.items()}
    assert damaged != first.summaries
    with store_of(diff) as store:
        walked = walk(root, store, Kept(first_blocks, damaged))
    assert walked.entries == full.entries and walked.count == full.count
