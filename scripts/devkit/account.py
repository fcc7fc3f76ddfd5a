"""A repository that looks like a real person's account: posts, likes, follows, and memories.

Scope: benchmark and test support. A real account's repository is not a memory store: it holds
the person's posts (with facets, embeds and languages), likes and follows, often hundreds of
thousands of records, and a few hundred memory records among them. ``account_records`` makes
such a set, deterministically from a seed, in the proportions below; ``build_repo`` (in
``repo_builder``) turns it into a signed CAR, and the records can be written to a local PDS too.

The records follow the app.bsky lexicons as Bluesky's app writes them; the memory records are
pdsmem's own mapping of sample facts, so importing them gives real AgentMemoryEvents.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterator
from typing import Any

from devkit.events import fact
from devkit.repo_builder import COLLECTION, DID, tid

from pdsmem.mapping.datamodel import Cid
from pdsmem.mapping.to_record import to_records

# Share of each collection among the records that are not memories, roughly a year of a
# moderately active account: mostly likes, then posts, then follows.
SHARES = (("app.bsky.feed.like", 0.55), ("app.bsky.feed.post", 0.30), ("app.bsky.graph.follow", 0.15))
START_US = 1_690_000_000_000_000  # mid 2023, in microseconds
WORDS = (
    "the a of to and in is it that for on was with as I you this be at have from or by not but "
    "what all were we when your can said there use an each which she do how their if will up "
    "other about out many then them these so some her would make like him into time has look "
    "two more write go see number no way could people my than first water been call who oil "
    "its now find long down day did get come made may part atproto bluesky feed memory agent"
).split()


def _did(n: int) -> str:
    return "did:plc:" + hashlib.sha256(b"did%d" % n).hexdigest()[:24]


def _cid_text(seed: str) -> str:
    return str(Cid.for_dag_cbor(seed.encode()))


def _text(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def _created(micros: int) -> str:
    seconds, us = divmod(micros, 1_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{us // 1000:03d}Z"


def _post(rng: random.Random, micros: int, n: int) -> dict[str, Any]:
    text = _text(rng, 5, 40)
    post: dict[str, Any] = {"$type": "app.bsky.feed.post", "text": text, "createdAt": _created(micros)}
    post["langs"] = rng.choice((["en"], ["en"], ["en"], ["fr"], ["en", "de"]))
    roll = rng.random()
    if roll < 0.25:  # a mention or a link, with its facet over bytes of the text
        handle = f"@friend{n % 997}.bsky.social"
        start = len(text.encode()) + 1
        post["text"] = f"{text} {handle}"
        feature = (
            {"$type": "app.bsky.richtext.facet#mention", "did": _did(n % 997)}
            if roll < 0.15 else {"$type": "app.bsky.richtext.facet#link", "uri": f"https://example.com/{n}"}
        )
        post["facets"] = [{"index": {"byteStart": start, "byteEnd": start + len(handle)},
                           "features": [feature]}]
    roll = rng.random()
    if roll < 0.10:  # images: blobs, with alt text and aspect ratio
        post["embed"] = {"$type": "app.bsky.embed.images", "images": [
            {"alt": _text(rng, 0, 8),
             "image": {"$type": "blob", "ref": {"$link": str(Cid.for_raw(b"img%d-%d" % (n, i)))},
                       "mimeType": "image/jpeg", "size": rng.randint(50_000, 900_000)},
             "aspectRatio": {"width": 1200, "height": rng.choice((800, 900, 1600))}}
            for i in range(rng.randint(1, 3))]}
    elif roll < 0.18:  # a link card
        post["embed"] = {"$type": "app.bsky.embed.external", "external": {
            "uri": f"https://example.com/article/{n}", "title": _text(rng, 3, 9),
            "description": _text(rng, 8, 25)}}
    elif roll < 0.25:  # a quote of another post
        post["embed"] = {"$type": "app.bsky.embed.record", "record": {
            "uri": f"at://{_did(n % 5000)}/app.bsky.feed.post/{tid(micros - 7_000_000_000)}",
            "cid": _cid_text(f"quoted{n}")}}
    if rng.random() < 0.3:  # a reply
        root = f"at://{_did(n % 3000)}/app.bsky.feed.post/{tid(micros - 3_000_000_000)}"
        ref = {"uri": root, "cid": _cid_text(f"root{n}")}
        post["reply"] = {"root": ref, "parent": ref}
    return post


def _like(micros: int, n: int) -> dict[str, Any]:
    subject = f"at://{_did(n % 20_000)}/app.bsky.feed.post/{tid(micros - 86_400_000_000)}"
    return {"$type": "app.bsky.feed.like", "subject": {"uri": subject, "cid": _cid_text(f"liked{n}")},
            "createdAt": _created(micros)}


def _follow(micros: int, n: int) -> dict[str, Any]:
    return {"$type": "app.bsky.graph.follow", "subject": _did(n), "createdAt": _created(micros)}


def account_records(total: int, memories: int, *, did: str = DID, seed: int = 7) -> dict[str, dict[str, Any]]:
    """``total`` records (repo path -> record, JSON form): ``memories`` memory records (pdsmem's
    mapping of sample facts) and the rest posts, likes and follows in the shares above."""
    if not 0 <= memories <= total:
        raise ValueError("memories must be between 0 and total")
    rng = random.Random(seed)
    records: dict[str, dict[str, Any]] = {}
    views, failed = to_records([fact(i) for i in range(memories)], did)
    assert not failed, failed[:3]
    for view in views:
        records[f"{COLLECTION}/{view.uri.rsplit('/', 1)[1]}"] = view.value
    others = total - memories
    micros = START_US
    for n, collection in enumerate(_collections(rng, others)):
        micros += rng.randint(1, 120_000_000)  # up to two minutes apart
        if collection == "app.bsky.feed.post":
            value = _post(rng, micros, n)
        elif collection == "app.bsky.feed.like":
            value = _like(micros, n)
        else:
            value = _follow(micros, n)
        records[f"{collection}/{tid(micros, n % 32)}"] = value
    return records


def _collections(rng: random.Random, count: int) -> Iterator[str]:
    names = [name for name, _ in SHARES]
    weights = [share for _, share in SHARES]
    for _ in range(count):
        yield rng.choices(names, weights)[0]
