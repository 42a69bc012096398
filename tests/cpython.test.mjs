// Where valid Python ends, as CPython 3.11 says (issue #21): each case is
// judged by CPython's own parser, ast.parse (tests/oracle/verdict.py), and read by
// the core through the fast path and the general parser alone; a dump
// CPython accepts is modelled, one it refuses is refused on its line with
// its message.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { model, root } from './helpers.mjs';

const HEAD = [
  'import pypto.language as pl', '', '@pl.program', 'class P:', '    @pl.function(type=pl.FunctionType.AIV)',
  '    def k(self, a: pl.Tile[[16, 64], pl.FP32, pl.MemRef("m", pl.const(0, pl.INT64), 4096), pl.Mem.Vec]):',
].join('\n');
/** A dump whose kernel body is `lines` (indented 8). */
const dump = (...lines) => `${HEAD}\n${lines.map((l) => `        ${l}`).join('\n')}\n        return a\n`;

function cpython(sources) {
  const result = spawnSync('python3', [join(root, 'tests', 'oracle', 'verdict.py')], { input: JSON.stringify(sources), encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const { version, verdicts } = JSON.parse(result.stdout);
  assert.match(version, /^3\.11\./, 'the core follows CPython 3.11');
  return verdicts;
}

/** The core's verdict, through the fast path and through the general parser. */
async function ours(source) {
  const verdicts = [];
  for (const generalParser of [false, true]) {
    try {
      await model(source, { generalParser });
      verdicts.push('ok');
    } catch (error) {
      if (error.kind !== 'syntax') throw error;
      verdicts.push({ line: error.line, message: error.message });
    }
  }
  return verdicts;
}

/** Every case agrees with CPython, both ways. */
async function agree(cases) {
  const expected = cpython(cases.map(([, source]) => source));
  for (const [i, [name, source]] of cases.entries()) {
    const [fast, general] = await ours(source);
    assert.deepEqual(fast, expected[i], `${name} (fast path)`);
    assert.deepEqual(general, expected[i], `${name} (general parser)`);
  }
}

const blocks = (n) => [...Array(n).keys()].map((i) => `${'    '.repeat(i)}if a:`).concat(`${'    '.repeat(n)}pass`);

describe('limits, as CPython counts them (#21 item 13)', () => {
  test('200 nested parentheses are valid, 201 are not', () => agree([199, 200, 201].map((n) =>
    [`${n} parentheses`, dump(`x = ${'('.repeat(n)}a${')'.repeat(n)}`)])));

  test('indentation: the 100th level is refused ("too many levels of indentation"), on its line', () => agree([97, 98, 99].map((n) =>
    [`${n} nested blocks in a method`, dump(...blocks(n))])));

  test('long chains of unary operators CPython compiles are read', () => agree([
    ['998 minus signs', dump(`x = ${'-'.repeat(998)}1`)],
    ['999 nots', dump(`x = ${'not '.repeat(999)}a`)],
  ]));
});
