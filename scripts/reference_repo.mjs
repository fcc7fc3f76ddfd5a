// Benchmark data and a peer baseline from the reference implementation, @atproto/repo.
//
//   node scripts/reference_repo.mjs build --n 300000 [--memories 1000] [--seed 7] --out FILE.car
//   node scripts/reference_repo.mjs verify FILE.car [--did DID] [--signing-key did:key:...]
//
// build: an account repository that looks like a real person's, made, laid out in its MST and
//   signed (a fresh K-256 key) by @atproto/repo itself (Repo.create, then getFullRepo for the
//   CAR): posts (half with a mention or link facet, some with images (blobs), link cards,
//   quotes and replies (strongRefs)), likes and reposts (strongRefs), follows, a profile (avatar
//   and banner blobs), lists and their items, and memory records
//   (dev.bastienrobert.memory.record) among them. Deterministic from --seed but for the key and
//   the commit's rev. Prints one JSON line: {did, signingKey, records, bytes, seconds}.
// verify: the reference's own check of a repository CAR, verifyRepoCar (every block against
//   its CID, the commit's DID and signature, the MST walked into the list of its records),
//   then one pass over the records it lists. Prints one JSON line: {records, seconds}.
//
// Runs on the Node.js 22 that scripts/pds/install puts in .local/pds, and loads the packages
// from there (PDS_MODULES_DIR overrides where): @atproto/repo comes with @atproto/pds.

import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const MEMORY = 'dev.bastienrobert.memory.record'
// Shares of the records that are not memories, about a year of a moderately active account.
const SHARES = [
  ['app.bsky.feed.like', 0.5],
  ['app.bsky.feed.post', 0.3],
  ['app.bsky.feed.repost', 0.06],
  ['app.bsky.graph.follow', 0.13],
  ['app.bsky.graph.listitem', 0.01],
]
const LISTS = 5
const WORDS = (
  'the a of to and in is it that for on was with as I you this be at have from or by not but ' +
  'what all were we when your can said there use an each which she do how their if will up ' +
  'other about out many then them these so some her would make like him into time has look ' +
  'two more write go see number no way could people my than first water been call who oil ' +
  'its now find long down day did get come made may part atproto bluesky feed memory agent ' +
  'café naïve über 日本語 emoji 🦋 façade'
).split(' ')

function fail(message) {
  process.stderr.write(`reference_repo: ${message}\n`)
  process.exit(1)
}

async function loadPackages() {
  const modulesDir = path.resolve(
    process.env.PDS_MODULES_DIR ?? path.join(REPO_ROOT, '.local', 'pds', 'node_modules'),
  )
  if (!fs.existsSync(path.join(modulesDir, '@atproto', 'repo'))) {
    fail(`@atproto/repo is not installed in ${modulesDir}; run scripts/pds/install first`)
  }
  const require = createRequire(path.join(modulesDir, 'noop.js'))
  const load = async (name) => import(pathToFileURL(require.resolve(name)).href)
  return {
    repo: await load('@atproto/repo'),
    crypto: await load('@atproto/crypto'),
    lexData: await load('@atproto/lex-data'),
  }
}

// A small seeded generator (mulberry32): the same records for the same seed.
function generator(seed) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (low, high) => low + Math.floor(next() * (high - low + 1))
  const pick = (items) => items[Math.floor(next() * items.length)]
  return { next, int, pick }
}

const B32 = '234567abcdefghijklmnopqrstuvwxyz'

// A TID: 53 bits of microseconds then 10 bits of clock id, in sortable base32.
function tid(micros, clock = 0) {
  let value = (BigInt(micros) << 10n) | BigInt(clock & 1023)
  let out = ''
  for (let i = 0; i < 13; i++) {
    out = B32[Number(value & 31n)] + out
    value >>= 5n
  }
  return out
}

function created(micros) {
  return new Date(Math.floor(micros / 1000)).toISOString()
}

function didOf(n) {
  let h = 2166136261 >>> 0
  const s = `did${n}`
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0
  let out = ''
  let x = h
  for (let i = 0; i < 24; i++) {
    x = Math.imul(x ^ (x >>> 13), 0x5bd1e995) >>> 0
    out += B32[x & 31]
  }
  return `did:plc:${out}`
}

function build(pkgs, { n, memories, seed }) {
  const { cidForCbor, cidForRawBytes } = pkgs.lexData
  const rng = generator(seed)
  const text = (low, high) => {
    const count = rng.int(low, high)
    const words = []
    for (let i = 0; i < count; i++) words.push(rng.pick(WORDS))
    return words.join(' ')
  }
  const encoder = new TextEncoder()
  const bytesOf = (s) => encoder.encode(s)
  const cids = []
  const cidFor = async (seedText, raw = false) =>
    raw ? cidForRawBytes(bytesOf(seedText)) : cidForCbor(bytesOf(seedText))
  const strongRef = async (did, collection, micros, label) => ({
    uri: `at://${did}/${collection}/${tid(micros)}`,
    cid: (await cidFor(label)).toString(),
  })
  const blob = async (label, mimeType, size) => ({
    $type: 'blob', ref: await cidFor(label, true), mimeType, size,
  })

  return async function* records(accountDid) {
    const start = 1_690_000_000_000_000
    let micros = start
    yield ['app.bsky.actor.profile', 'self', {
      $type: 'app.bsky.actor.profile',
      displayName: 'A. Person',
      description: text(10, 30),
      avatar: await blob('avatar', 'image/jpeg', 123_456),
      banner: await blob('banner', 'image/jpeg', 654_321),
      createdAt: created(micros),
    }]
    const lists = []
    for (let i = 0; i < LISTS; i++) {
      micros += 1_000_000
      const rkey = tid(micros, i)
      lists.push(`at://${accountDid}/app.bsky.graph.list/${rkey}`)
      yield ['app.bsky.graph.list', rkey, {
        $type: 'app.bsky.graph.list',
        purpose: i % 2 ? 'app.bsky.graph.defs#modlist' : 'app.bsky.graph.defs#curatelist',
        name: `list ${i}`,
        description: text(5, 15),
        createdAt: created(micros),
      }]
    }
    const others = n - memories - 1 - LISTS
    const memoryEvery = memories ? Math.max(1, Math.floor(others / memories)) : 0
    let memoriesLeft = memories
    for (let i = 0; i < others; i++) {
      micros += rng.int(1, 120_000_000)
      if (memoryEvery && memoriesLeft && i % memoryEvery === 0) {
        memoriesLeft--
        yield [MEMORY, tid(micros, 1), memoryRecord(rng, text, micros, memories - memoriesLeft)]
      }
      let roll = rng.next()
      let collection = SHARES[SHARES.length - 1][0]
      for (const [name, share] of SHARES) {
        if (roll < share) { collection = name; break }
        roll -= share
      }
      const rkey = tid(micros, i % 32)
      if (collection === 'app.bsky.feed.post') {
        yield [collection, rkey, await post(i, micros)]
      } else if (collection === 'app.bsky.feed.like' || collection === 'app.bsky.feed.repost') {
        yield [collection, rkey, {
          $type: collection,
          subject: await strongRef(didOf(i % 20_000), 'app.bsky.feed.post', micros - 86_400_000_000, `s${i}`),
          createdAt: created(micros),
        }]
      } else if (collection === 'app.bsky.graph.follow') {
        yield [collection, rkey, { $type: collection, subject: didOf(i), createdAt: created(micros) }]
      } else {
        yield [collection, rkey, {
          $type: collection, subject: didOf(i), list: lists[i % LISTS], createdAt: created(micros),
        }]
      }
    }
    while (memoriesLeft > 0) {
      micros += 1_000_000
      memoriesLeft--
      yield [MEMORY, tid(micros, 2), memoryRecord(rng, text, micros, memories - memoriesLeft)]
    }

    async function post(i, at) {
      let body = text(5, 40)
      const value = { $type: 'app.bsky.feed.post', text: body, createdAt: created(at) }
      value.langs = rng.pick([['en'], ['en'], ['en'], ['fr'], ['en', 'de']])
      const roll = rng.next()
      if (roll < 0.5) { // half the posts: a mention or a link, a facet over bytes of the text
        const mention = roll < 0.2
        const shown = mention ? `@friend${i % 997}.bsky.social` : `example.com/${i}`
        const byteStart = bytesOf(body).length + 1
        body = `${body} ${shown}`
        value.text = body
        value.facets = [{
          $type: 'app.bsky.richtext.facet',
          index: { byteStart, byteEnd: byteStart + bytesOf(shown).length },
          features: [mention
            ? { $type: 'app.bsky.richtext.facet#mention', did: didOf(i % 997) }
            : { $type: 'app.bsky.richtext.facet#link', uri: `https://example.com/${i}` }],
        }]
      }
      const embed = rng.next()
      if (embed < 0.12) { // images: blobs, with alt text and aspect ratio
        const images = []
        for (let k = rng.int(1, 3); k > 0; k--) {
          images.push({
            alt: text(0, 8),
            image: await blob(`img${i}-${k}`, 'image/jpeg', rng.int(50_000, 900_000)),
            aspectRatio: { width: 1200, height: rng.pick([800, 900, 1600]) },
          })
        }
        value.embed = { $type: 'app.bsky.embed.images', images }
      } else if (embed < 0.2) { // a link card, some with a thumbnail blob
        const external = { uri: `https://example.com/article/${i}`, title: text(3, 9), description: text(8, 25) }
        if (rng.next() < 0.5) external.thumb = await blob(`thumb${i}`, 'image/png', rng.int(5_000, 90_000))
        value.embed = { $type: 'app.bsky.embed.external', external }
      } else if (embed < 0.27) { // a quote of another post: a strongRef
        value.embed = {
          $type: 'app.bsky.embed.record',
          record: await strongRef(didOf(i % 5000), 'app.bsky.feed.post', at - 7_000_000_000, `q${i}`),
        }
      }
      if (rng.next() < 0.3) { // a reply: two strongRefs
        const root = await strongRef(didOf(i % 3000), 'app.bsky.feed.post', at - 3_000_000_000, `r${i}`)
        const parent = rng.next() < 0.5 ? root
          : await strongRef(didOf(i % 2999), 'app.bsky.feed.post', at - 1_000_000_000, `p${i}`)
        value.reply = { root, parent }
      }
      return value
    }
  }
}

function memoryRecord(rng, text, micros, number) {
  const value = {
    $type: MEMORY,
    content: `memory ${number}: ${text(6, 30)}`,
    createdAt: created(micros),
    kind: rng.pick(['fact', 'preference', 'decision', 'context']),
  }
  if (rng.next() < 0.5) value.scope = 'work'
  return value
}

async function buildCommand(options) {
  const n = Number(options.n ?? 300_000)
  const memories = Number(options.memories ?? 1_000)
  const seed = Number(options.seed ?? 7)
  if (!Number.isInteger(n) || !Number.isInteger(memories) || memories < 0 || n < memories + 1 + LISTS) {
    fail(`--n must be an integer of at least --memories + ${1 + LISTS} (a profile and ${LISTS} lists)`)
  }
  if (!options.out) fail('build needs --out FILE.car')
  const pkgs = await loadPackages()
  const { Repo, MemoryBlockstore, WriteOpAction, getFullRepo } = pkgs.repo
  const started = performance.now()
  const keypair = await pkgs.crypto.Secp256k1Keypair.create({ exportable: true })
  const did = didOf(`account-${seed}`)
  const writes = []
  for await (const [collection, rkey, record] of build(pkgs, { n, memories, seed })(did)) {
    writes.push({ action: WriteOpAction.Create, collection, rkey, record })
  }
  const storage = new MemoryBlockstore()
  const repo = await Repo.create(storage, did, keypair, writes)
  const out = fs.openSync(options.out, 'w')
  let bytes = 0
  for await (const chunk of getFullRepo(storage, repo.cid)) {
    fs.writeSync(out, chunk)
    bytes += chunk.length
  }
  fs.closeSync(out)
  const seconds = (performance.now() - started) / 1000
  console.log(JSON.stringify({ did, signingKey: keypair.did(), records: writes.length, bytes, seconds }))
}

async function verifyCommand(file, options) {
  if (!file) fail('verify needs a CAR file')
  const pkgs = await loadPackages()
  const started = performance.now()
  const car = fs.readFileSync(file)
  const verified = await pkgs.repo.verifyRepoCar(car, options.did, options['signing-key'])
  let records = 0
  for (const create of verified.creates) records += create.cid ? 1 : 0
  const seconds = (performance.now() - started) / 1000
  console.log(JSON.stringify({ records, seconds }))
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    n: { type: 'string' }, memories: { type: 'string' }, seed: { type: 'string' },
    out: { type: 'string' }, did: { type: 'string' }, 'signing-key': { type: 'string' },
  },
})
const [command, file] = positionals
if (command === 'build') await buildCommand(values)
else if (command === 'verify') await verifyCommand(file, values)
else fail(`expected 'build' or 'verify', got ${JSON.stringify(command ?? '')}`)
