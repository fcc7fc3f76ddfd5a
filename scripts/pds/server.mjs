// A local reference PDS and PLC directory in one Node.js 22 process, for tests,
// development and demos. Both listen on 127.0.0.1 only.
//
// Usage:
//   node server.mjs [--pds-port N] [--plc-port N] [--name NAME | --data-dir DIR] [--rate-limits]
//
// Options fall back to environment variables, then to the ports the data directory was last
// served on (<data>/ports.json: its DID documents name the PDS by URL, port included), then to
// defaults:
//   --pds-port     PDS_PORT                  2583
//   --plc-port     PLC_PORT                  2582
//   --name         PDS_RUN_NAME              default  (data in <repo>/.local/pds-run/<name>)
//   --data-dir     PDS_RUN_DIR               (overrides --name)
//   --rate-limits  PDS_RATE_LIMITS_ENABLED   false    (the PDS's own in-memory rate limiter)
//   --exit-with-parent                               stop when the process that started it ends
//   PDS_ADMIN_PASSWORD overrides the admin password kept in <data>/secrets.json.
//   PDS_MODULES_DIR points at the installed packages (default <repo>/.local/pds/node_modules).
// Any other PDS_* variable the PDS reads (LOG_ENABLED too) still applies.
//
// The data directory keeps everything a restart needs: the PDS's databases and blobs,
// the secrets (JWT secret, admin password, PLC rotation key) and the PLC operations
// log, which is replayed into the in-memory PLC database on start. Restarting with the
// same data directory therefore keeps accounts, repositories, DIDs and sessions.
//
// When both services answer, one JSON line is printed on stdout:
//   {"ready":true,"pds":"http://127.0.0.1:2583","plc":"http://127.0.0.1:2582",...}
// SIGTERM or SIGINT shuts both down cleanly.

import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const HOST = '127.0.0.1'
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

function fail(message) {
  process.stderr.write(`local-pds: ${message}\n`)
  process.exit(1)
}

function parsePort(value, what) {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    fail(`${what} must be a port number between 1 and 65535, got ${JSON.stringify(value)}`)
  }
  return port
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      'pds-port': { type: 'string' },
      'plc-port': { type: 'string' },
      name: { type: 'string' },
      'data-dir': { type: 'string' },
      'rate-limits': { type: 'boolean' },
      'exit-with-parent': { type: 'boolean' },
    },
  })
  const env = process.env
  const name = values.name ?? env.PDS_RUN_NAME ?? 'default'
  if (!/^[A-Za-z0-9._-]+$/.test(name)) {
    fail(`--name must be letters, digits, '.', '_' or '-', got ${JSON.stringify(name)}`)
  }
  const dataDir = path.resolve(
    values['data-dir'] ?? env.PDS_RUN_DIR ?? path.join(REPO_ROOT, '.local', 'pds-run', name),
  )
  const last = lastPorts(dataDir)
  const pdsPort = parsePort(values['pds-port'] ?? env.PDS_PORT ?? String(last.pds ?? 2583), '--pds-port')
  const plcPort = parsePort(values['plc-port'] ?? env.PLC_PORT ?? String(last.plc ?? 2582), '--plc-port')
  if (pdsPort === plcPort) fail(`--pds-port and --plc-port must differ (both ${pdsPort})`)
  const rateLimits =
    values['rate-limits'] ?? /^(true|t|1)$/i.test(env.PDS_RATE_LIMITS_ENABLED ?? '')
  const modulesDir = path.resolve(
    env.PDS_MODULES_DIR ?? path.join(REPO_ROOT, '.local', 'pds', 'node_modules'),
  )
  const exitWithParent = values['exit-with-parent'] ?? false
  return { dataDir, pdsPort, plcPort, rateLimits, modulesDir, exitWithParent }
}

// The ports a data directory was last served on ({} for a new one): a restart without port
// options keeps them, so that the DID documents, which name the PDS's URL, stay true.
function lastPorts(dataDir) {
  try {
    const ports = JSON.parse(fs.readFileSync(path.join(dataDir, 'ports.json'), 'utf8'))
    return { pds: ports.pds, plc: ports.plc }
  } catch {
    return {}
  }
}

// The packages live in the install folder, not beside this script: load them from there.
async function loadPackages(modulesDir) {
  if (!fs.existsSync(path.join(modulesDir, '@atproto', 'pds'))) {
    fail(`@atproto/pds is not installed in ${modulesDir}; run scripts/pds/install first`)
  }
  const require = createRequire(path.join(modulesDir, 'noop.js'))
  const load = async (name) => import(pathToFileURL(require.resolve(name)).href)
  const pds = await load('@atproto/pds')
  const crypto = await load('@atproto/crypto')
  const plcModule = await load('@did-plc/server')
  return { pds, crypto, plc: plcModule.default ?? plcModule }
}

// Secrets are made once per data directory so that a restart keeps tokens and DIDs valid.
async function loadSecrets(dataDir, crypto) {
  const file = path.join(dataDir, 'secrets.json')
  if (!fs.existsSync(file)) {
    const rotationKey = await crypto.Secp256k1Keypair.create({ exportable: true })
    const secrets = {
      jwtSecret: randomBytes(32).toString('hex'),
      adminPassword: randomBytes(16).toString('hex'),
      plcRotationKeyK256PrivateKeyHex: Buffer.from(await rotationKey.export()).toString('hex'),
    }
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 })
  }
  const secrets = JSON.parse(fs.readFileSync(file, 'utf8'))
  if (process.env.PDS_ADMIN_PASSWORD) secrets.adminPassword = process.env.PDS_ADMIN_PASSWORD
  return secrets
}

// The PLC server's in-memory database, with every accepted operation appended to a log
// file as it is accepted, and the log replayed on start.
async function openPlcDatabase(plc, logFile) {
  class LoggedPlcDatabase extends plc.MockDatabase {
    async validateAndAddOp(did, op) {
      await super.validateAndAddOp(did, op)
      fs.appendFileSync(logFile, JSON.stringify({ did, op }) + '\n')
    }

    async replay() {
      if (!fs.existsSync(logFile)) return 0
      const lines = fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean)
      for (const [index, line] of lines.entries()) {
        let entry
        try {
          entry = JSON.parse(line)
        } catch {
          if (index < lines.length - 1) {
            fail(`${logFile} line ${index + 1} is not JSON; remove the data directory to start over`)
          }
          // The last line was cut short by a crash mid-write: drop it so appends stay valid.
          fs.writeFileSync(logFile, lines.slice(0, index).map((l) => l + '\n').join(''))
          break
        }
        await super.validateAndAddOp(entry.did, entry.op)
      }
      return lines.length
    }
  }
  const db = new LoggedPlcDatabase()
  await db.replay()
  return db
}

// Both servers call `app.listen(port)`, which listens on every interface: bind loopback only.
function listenOnLoopback(app) {
  // Wrap, not replace: the PDS wraps app.listen itself to serve WebSocket upgrades (the event
  // stream, com.atproto.sync.subscribeRepos) on the server it makes.
  const listen = app.listen
  app.listen = (port) => listen.call(app, port, HOST)
}

async function main() {
  if (Number(process.versions.node.split('.')[0]) < 22) {
    fail(`Node.js 22 or later is needed, this is ${process.version}; use the one scripts/pds/install put in .local/pds`)
  }
  const opts = readOptions()
  const { pds: pdsPkg, crypto, plc } = await loadPackages(opts.modulesDir)
  const blobDir = path.join(opts.dataDir, 'blobs')
  fs.mkdirSync(blobDir, { recursive: true })
  const secrets = await loadSecrets(opts.dataDir, crypto)

  const plcDb = await openPlcDatabase(plc, path.join(opts.dataDir, 'plc-ops.jsonl'))
  const plcServer = plc.PlcServer.create({ db: plcDb, port: opts.plcPort })
  listenOnLoopback(plcServer.app)
  await plcServer.start()
  const plcUrl = `http://${HOST}:${opts.plcPort}`

  const env = {
    ...pdsPkg.readEnv(),
    port: opts.pdsPort,
    hostname: 'localhost',
    devMode: true,
    dataDirectory: opts.dataDir,
    blobstoreDiskLocation: blobDir,
    // The PDS resolves DIDs through this URL and refuses an IP address as a hostname
    // (describeRepo answers 400 "Invalid hostname"): name the loopback PLC by its host name.
    didPlcUrl: `http://localhost:${opts.plcPort}`,
    jwtSecret: secrets.jwtSecret,
    adminPassword: secrets.adminPassword,
    plcRotationKeyK256PrivateKeyHex: secrets.plcRotationKeyK256PrivateKeyHex,
    inviteRequired: false,
    // '.dev' too, so that tests can make accounts such as pdsmem.dev, whose handle is the
    // authority domain of pdsmem's own lexicons (dev.pdsmem.*): only such an account publishes them.
    serviceHandleDomains: ['.test', '.dev'],
    rateLimitsEnabled: opts.rateLimits,
    // importRepo bodies up to 1 GiB (the default is the 5 MB blob limit): the benchmarks put
    // real-sized accounts on the PDS that way.
    maxImportSize: 1024 ** 3,
  }
  const pds = await pdsPkg.PDS.create(pdsPkg.envToCfg(env), pdsPkg.envToSecrets(env))
  listenOnLoopback(pds.app)
  await pds.start()

  let stopping = false
  const stop = async (signal) => {
    if (stopping) return
    stopping = true
    try {
      await pds.destroy()
      await plcServer.destroy()
    } catch (err) {
      process.stderr.write(`local-pds: error while stopping on ${signal}: ${err?.stack ?? err}\n`)
      process.exit(1)
    }
    process.exit(0)
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  if (opts.exitWithParent) {
    const parent = process.ppid
    setInterval(() => process.ppid !== parent && stop('parent exit'), 1000).unref()
  }

  const ready = {
    ready: true,
    pds: `http://${HOST}:${opts.pdsPort}`,
    plc: plcUrl,
    publicUrl: pds.ctx.cfg.service.publicUrl,
    dataDir: opts.dataDir,
    rateLimits: opts.rateLimits,
    pid: process.pid,
  }
  fs.writeFileSync(path.join(opts.dataDir, 'ports.json'),
    JSON.stringify({ pds: opts.pdsPort, plc: opts.plcPort }) + '\n')
  process.stdout.write(JSON.stringify(ready) + '\n')
}

main().catch((err) => fail(`could not start: ${err?.stack ?? err}`))
