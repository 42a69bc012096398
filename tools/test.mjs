// Runs the node:test suites of tests/ (after tools/build.sh, as npm runs it):
//   node tools/test.mjs           every suite (npm test, CI)
//   node tools/test.mjs --quick   the edit loop (npm run test:quick): the
//                                 core, the CLI and the pure JS suites; no
//                                 browser, no fuzzing run, no C tests
//                                 under sanitizers
// Other arguments go to `node --test` (e.g. --test-name-pattern=...).
//
// Two files run at a time even on two cores (node's default is one fewer
// than the cores, so one at a time there): one alone left a core idle
// while it waited on the CLI, python3 or a browser; two keep both busy
// (98 % of a run's core time, the browsers' included).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const tests = fileURLToPath(new URL('../tests/', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const passed = args.filter((a) => a !== '--quick');

/** Suites that drive Chromium or Firefox (they import the browser helpers). */
const drivesBrowser = (file) => /from '\.\.\/(support\/(browser|firefox)|\.\.\/tools\/chromium)\.mjs'/.test(readFileSync(join(tests, file), 'utf8'));
/** The suites by area: the core's rules, the command line, the page
 * (tests/support/ holds what they share). */
const AREAS = ['core', 'cli', 'page'];
/** Half a minute each on two cores: libFuzzer's fixed runs, and the C
 * tests under ASan + UBSan (the release build's run in the quick set). */
const SLOW = new Set(['fuzz.test.mjs', 'c-sanitizers.test.mjs']);

const files = AREAS.flatMap((area) => readdirSync(join(tests, area)).map((f) => `${area}/${f}`))
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => !quick || (!SLOW.has(f.split('/').pop()) && !drivesBrowser(f)))
  .sort()
  .map((f) => join(tests, f));

const concurrency = Math.max(2, availableParallelism() - 1);
const result = spawnSync(process.execPath,
  ['--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...passed, ...files], { stdio: 'inherit' });
process.exitCode = result.status ?? 1;
