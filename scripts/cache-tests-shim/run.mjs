// Runs the cache-tests suite's client with every test request made by `courier request`, one
// process per request, and writes the suite's results as JSON.
//
//     node run.mjs --suite DIR --base URL --courier PATH --engine curl|urlsession --out FILE
//                  [--cache] [--heuristics] [--jobs N] [--id TEST_ID] [--confirm]
//
// The suite runs in its browser mode (a private cache in front of the client), so it skips the
// tests meant for shared caches and CDNs and sends no headers meant to defeat a cache in front
// of it. Its `fetch` is replaced for the test URLs only: the harness's own calls (storing a
// test's configuration, reading what the server saw) go straight to the server, as they are not
// part of what is tested. With --cache, each test gets a fresh cache directory that its requests
// share, each from a process of its own, so what is tested is the disk cache as processes share
// it.
//
// Many tests wait for a response to turn stale and count on the next one being fresh, within a
// second or two; a process per request on a busy machine can miss that. --confirm runs each
// test that did not pass once more, alone, after the others, and records that result apart, so
// the report can tell a test that fails from one the machine was too busy for.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'

const { values: options } = parseArgs({
  options: {
    suite: { type: 'string' },
    base: { type: 'string' },
    courier: { type: 'string' },
    engine: { type: 'string' },
    out: { type: 'string' },
    cache: { type: 'boolean', default: false },
    heuristics: { type: 'boolean', default: false },
    jobs: { type: 'string', default: '10' },
    id: { type: 'string' },
    confirm: { type: 'boolean', default: false }
  }
})
for (const required of ['suite', 'base', 'courier', 'engine', 'out']) {
  if (!options[required]) {
    console.error(`run.mjs: --${required} is required`)
    process.exit(64)
  }
}

const cacheRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-cache-tests-'))
process.on('exit', () => fs.rmSync(cacheRoot, { recursive: true, force: true }))

/// The request headers the Fetch standard adds for a request's cache mode (its "HTTP-network-or-
/// cache fetch" steps), so that a test written for a browser's cache modes asks Courier's cache
/// the same thing on the wire.
function cacheModeFields (mode, fields) {
  const has = name => fields.some(([field]) => field.toLowerCase() === name)
  switch (mode) {
    case undefined:
    case 'default':
      return []
    case 'no-cache':
      return has('cache-control') ? [] : [['Cache-Control', 'max-age=0']]
    case 'no-store':
    case 'reload':
      return [
        ...(has('pragma') ? [] : [['Pragma', 'no-cache']]),
        ...(has('cache-control') ? [] : [['Cache-Control', 'no-cache']])
      ]
    default:
      throw new TypeError(`the cache mode '${mode}' has no spelling in HTTP fields`)
  }
}

/// `courier request` arguments for a fetch of `url` with `init`.
function courierArguments (url, init) {
  const fields = (init.headers ?? []).map(([name, value]) => [name, String(value)])
  fields.push(...cacheModeFields(init.cache, fields))
  const args = ['request', '-s', '-i', '-X', init.method ?? 'GET']
  if (init.body !== undefined) {
    // As fetch labels a string body, and read from a file so no value is taken for curl's @FILE.
    if (!fields.some(([name]) => name.toLowerCase() === 'content-type')) {
      fields.push(['Content-Type', 'text/plain;charset=UTF-8'])
    }
    const bodyFile = path.join(cacheRoot, `body-${process.hrtime.bigint()}`)
    fs.writeFileSync(bodyFile, String(init.body))
    args.push('-d', `@${bodyFile}`)
  }
  for (const [name, value] of fields) {
    args.push('-H', value === '' ? `${name};` : `${name}: ${value}`)
  }
  if (init.redirect === 'manual') args.push('--max-redirects', '0')
  if (options.cache) {
    const test = url.pathname.split('/')[2]
    const directory = path.join(cacheRoot, test)
    fs.mkdirSync(directory, { recursive: true })
    args.push('--cache', directory)
    if (options.heuristics) args.push('--cache-heuristics')
  }
  args.push(url.href)
  return args
}

/// The `-i` output split into what fetch's Response offers: status, fields and body.
function parseIncluded (output) {
  const end = output.indexOf('\r\n\r\n')
  if (end < 0) throw new TypeError('courier wrote no response head')
  const lines = output.subarray(0, end).toString('latin1').split('\r\n')
  const statusLine = lines.shift().match(/^HTTP\/[0-9.]+ ([0-9]{3}) ?(.*)$/)
  if (!statusLine) throw new TypeError(`courier wrote no status line: ${lines[0]}`)
  const headers = new Headers()
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    try {
      headers.append(line.slice(0, colon), line.slice(colon + 1).trim())
    } catch {
      // A value fetch's Headers refuses (bytes outside its range) is left out, as a browser
      // would not show it either.
    }
  }
  const body = output.subarray(end + 4)
  return {
    status: Number(statusLine[1]),
    statusText: statusLine[2],
    headers,
    text: async () => body.toString('utf8')
  }
}

/// One request through `courier request`: resolves to a Response-like value, or rejects as
/// fetch does when no response arrived.
function courierFetch (url, init) {
  return new Promise((resolve, reject) => {
    let args
    try {
      args = courierArguments(url, init)
    } catch (error) {
      reject(error)
      return
    }
    const child = spawn(options.courier, args, {
      env: { ...process.env, COURIER_TRANSPORT: options.engine },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const stdout = []
    const stderr = []
    child.stdout.on('data', chunk => stdout.push(chunk))
    child.stderr.on('data', chunk => stderr.push(chunk))
    const abort = () => child.kill('SIGKILL')
    init.signal?.addEventListener('abort', abort)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      init.signal?.removeEventListener('abort', abort)
      if (init.signal?.aborted) {
        reject(new DOMException(`courier did not answer ${init.method ?? 'GET'} ${url.href} in time`, 'AbortError'))
        return
      }
      const message = Buffer.concat(stderr).toString('utf8').trim()
      if (code !== 0) {
        reject(new TypeError(`courier exited ${code ?? signal}: ${message}`))
        return
      }
      try {
        resolve(parseIncluded(Buffer.concat(stdout)))
      } catch (error) {
        reject(error)
      }
    })
  })
}

const networkFetch = globalThis.fetch
globalThis.fetch = (resource, init = {}) => {
  const url = new URL(resource)
  if (!url.pathname.startsWith('/test/')) return networkFetch(resource, init)
  return courierFetch(url, init)
}

const suiteModule = file => import(pathToFileURL(path.join(options.suite, file)).href)
const { runTests, getResults } = await suiteModule('test-engine/client/runner.mjs')
const { default: suites } = await suiteModule('tests/index.mjs')

let selected = suites
if (options.id) {
  selected = suites
    .map(suite => ({ ...suite, tests: suite.tests.filter(test => test.id === options.id) }))
    .filter(suite => suite.tests.length > 0)
  if (selected.length === 0) {
    console.error(`run.mjs: no test has the id ${options.id}`)
    process.exit(64)
  }
  selected[0].tests[0].dump = true
}

await runTests(selected, true, options.base, Number(options.jobs))
const results = getResults()

const alone = {}
if (options.confirm) {
  // The suite's client keeps one result per test id and refuses a second; the first is put
  // back once the rerun's is read.
  const { testResults } = await suiteModule('test-engine/client/test.mjs')
  for (const suite of selected) {
    for (const test of suite.tests) {
      if (!(test.id in results) || results[test.id] === true) continue
      delete testResults[test.id]
      await runTests([{ ...suite, tests: [test] }], true, options.base, 1)
      alone[test.id] = testResults[test.id]
      testResults[test.id] = results[test.id]
    }
  }
}
fs.writeFileSync(options.out, JSON.stringify({ results, alone }, null, 2))
