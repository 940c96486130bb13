// Prints what run.mjs wrote beside the browsers' published results: passed / applicable per
// suite file, then every test that did not pass, with the suite's own reason.
//
//     node report.mjs --suite DIR LABEL=RESULTS.json...
//
// Applicable: the tests the suite runs against a browser's cache, which is a private cache in
// front of its client (neither `cdn_only` nor `browser_skip`), and of those the ones with a right
// answer: `required` and `optimal`. The `check` tests ask what a cache does where the
// specification leaves it free; they are counted apart, as the number answered yes. A test
// passes as on cache-tests.fyi: its own assertions hold and every test it depends on passed.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'

const { values: options, positionals } = parseArgs({
  options: { suite: { type: 'string' } },
  allowPositionals: true
})
if (!options.suite || positionals.length === 0) {
  console.error('usage: node report.mjs --suite DIR LABEL=RESULTS.json...')
  process.exit(64)
}

const suiteModule = file => import(pathToFileURL(path.join(options.suite, file)).href)
const { default: suites } = await suiteModule('tests/index.mjs')
const { determineTestResult, resultTypes } = await suiteModule('test-engine/lib/results.mjs')

const readJSON = file => JSON.parse(fs.readFileSync(file, 'utf8'))
// run.mjs writes the first pass's results and, with --confirm, each failure's rerun alone. A test
// that passed alone counts as passed, and the report names it, with what the first pass said.
const runs = positionals.map(argument => {
  const equals = argument.indexOf('=')
  const { results: firstPass, alone } = readJSON(argument.slice(equals + 1))
  const results = { ...firstPass }
  for (const [id, result] of Object.entries(alone)) if (result === true) results[id] = true
  return { label: argument.slice(0, equals), results, firstPass, alone, ours: true }
})
for (const [file, label] of [['chrome.json', 'Chrome'], ['firefox.json', 'Firefox'], ['safari.json', 'Safari']]) {
  const published = path.join(options.suite, 'results', file)
  if (fs.existsSync(published)) runs.push({ label, results: readJSON(published), ours: false })
}

const appliesToPrivateCache = test => test.cdn_only !== true && test.browser_skip !== true
const kindOf = test => test.kind ?? 'required'
const passed = (run, test) => {
  const outcome = determineTestResult(suites, test.id, run.results)
  return outcome === resultTypes.pass || outcome === resultTypes.yes
}

function count (tests, run, kinds) {
  const counted = tests.filter(test => kinds.includes(kindOf(test)))
  return `${counted.filter(test => passed(run, test)).length}/${counted.length}`
}

const rows = []
const checkRows = []
const applicable = []
for (const suite of suites) {
  const tests = suite.tests.filter(appliesToPrivateCache)
  applicable.push(...tests)
  if (tests.some(test => kindOf(test) !== 'check')) {
    rows.push([suite.id, ...runs.map(run => count(tests, run, ['required', 'optimal']))])
  }
  if (tests.some(test => kindOf(test) === 'check')) {
    checkRows.push([suite.id, ...runs.map(run => count(tests, run, ['check']))])
  }
}
const totals = [
  ['all (required + optimal)', ['required', 'optimal']],
  ['required', ['required']],
  ['optimal', ['optimal']],
  ['checks answered yes', ['check']]
].map(([label, kinds]) => [label, ...runs.map(run => count(applicable, run, kinds))])

function printTable (header, body) {
  const all = [header, ...body]
  const widths = header.map((_, column) => Math.max(...all.map(row => row[column].length)))
  const line = row => row.map((cell, column) => column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])).join('  ')
  console.log(line(header))
  console.log(widths.map(width => '-'.repeat(width)).join('  '))
  for (const row of body) console.log(line(row))
}

const header = ['suite file (passed/applicable)', ...runs.map(run => run.label)]
printTable(header, [...rows, header.map(() => ''), ...totals])
console.log('')
printTable(['checks (answered yes/asked)', ...runs.map(run => run.label)], checkRows)

function reason (run, test) {
  const outcome = determineTestResult(suites, test.id, run.results)
  const result = run.results[test.id]
  if (outcome === resultTypes.untested) return 'not run'
  if (outcome === resultTypes.dependency_fail) {
    const failed = test.depends_on.filter(id => !passed(run, { id }))
    return `depends on ${failed.join(', ')}, which did not pass`
  }
  if (outcome === resultTypes.setup_fail) return `setup: ${result[1]}`
  if (outcome === resultTypes.harness_fail) return `harness: ${Array.isArray(result) ? result.join(': ') : result}`
  return Array.isArray(result) ? result[1] : String(result)
}

for (const run of runs.filter(run => run.ours)) {
  const passedAlone = Object.keys(run.alone).filter(id => run.alone[id] === true)
  if (Object.keys(run.alone).length > 0) {
    const firstPass = { ...run, results: run.firstPass }
    console.log(`\n${run.label}: rerun alone, ${passedAlone.length} of the first pass's ${Object.keys(run.alone).length} ` +
      `failures passed (counted as passed above; first pass ${count(applicable, firstPass, ['required', 'optimal'])}):`)
    for (const id of passedAlone) console.log(`  ${id}: first ${JSON.stringify(run.firstPass[id])}`)
  }
  const failing = applicable.filter(test => kindOf(test) !== 'check' && !passed(run, test))
  console.log(`\n${run.label}: ${failing.length} applicable tests did not pass`)
  for (const test of failing) {
    console.log(`  ${test.id} [${kindOf(test)}] ${test.name}\n      ${reason(run, test)}`)
  }
  const noes = applicable.filter(test => kindOf(test) === 'check' && !passed(run, test))
  console.log(`${run.label}: checks answered no (${noes.length}): ${noes.map(test => test.id).join(' ')}`)
}
