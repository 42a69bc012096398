// Hostile and broken inputs. Each entry makes its bytes and says what must
// come out: a refusal (kind, line, message) or a model that `check`
// accepts. tests/cli/hostile-cli.test.mjs runs them through the CLI,
// tests/page/hostile-page.test.mjs through the page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { corpus, dumpWith, tileType } from './helpers.mjs';

const vecTile = (name, offset, size) => `${name}: ${tileType('Vec', 'mem_' + name.slice(0, 8), offset, size)} = pl.tile.load(x)`;
const good = dumpWith([vecTile('t', 0, 1024), 'y = t']);
const bytes = (text) => Buffer.from(text, 'utf8');
/** `text` cut just after the first occurrence of `marker`. */
const cutAfter = (text, marker) => text.slice(0, text.indexOf(marker) + marker.length);

export const catalogue = [
  {
    name: 'an empty file',
    make: () => Buffer.alloc(0),
    refused: { kind: 'encoding', message: /the file is empty/ },
  },
  {
    name: 'a PNG image',
    make: () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), bytes('IHDR'), Buffer.alloc(64, 7)]),
    refused: { kind: 'encoding', line: 1, message: /this is a PNG image, not a pass dump/ },
  },
  {
    name: 'an ELF binary',
    make: () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 0)]),
    refused: { kind: 'encoding', line: 1, message: /this is an ELF binary/ },
  },
  {
    name: 'invalid UTF-8',
    make: () => Buffer.concat([bytes(good.split('\n').slice(0, 8).join('\n') + '\n# caf'), Buffer.from([0xe9, 0x0a]), bytes('x = 1\n')]),
    refused: { kind: 'encoding', line: 9, message: /invalid UTF-8 byte 0xE9 at line 9/ },
  },
  {
    name: 'a UTF-16 file with a byte order mark',
    make: () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(good, 'utf16le')]),
    refused: { kind: 'encoding', line: 1, message: /UTF-16/ },
  },
  {
    name: 'a UTF-8 byte order mark',
    make: () => bytes('\ufeff' + good),
    check: (m) => assert.deepEqual([m.functions[0].boxes[0].name, m.functions[0].boxes[0].start], ['t', 8]),
  },
  {
    name: 'NUL bytes',
    make: () => bytes(good.replace('y = t', 'y = t\0')),
    refused: { kind: 'encoding', line: 9, message: /null bytes \(line 9\)/ },
  },
  {
    name: 'a dump truncated mid-statement',
    make: () => bytes(cutAfter(good, 'pl.MemRef(')),
    refused: { kind: 'syntax', line: 8, message: /'\(' was never closed/ },
  },
  {
    name: 'a dump truncated mid-string',
    make: () => bytes(cutAfter(dumpWith([vecTile('t', 0, 64), 'y = f("unfinished text']), 'unfinished')),
    refused: { kind: 'syntax', line: 9, message: /unterminated string literal/ },
  },
  {
    name: 'a dump truncated mid-bracket',
    make: () => bytes(dumpWith([vecTile('t', 0, 64), 'y = f([t,', '    t,'])),
    refused: { kind: 'syntax', line: 9, message: /'\[' was never closed/ },
  },
  {
    name: 'unbalanced brackets',
    make: () => bytes(dumpWith([vecTile('t', 0, 64), 'y = f(t))'])),
    refused: { kind: 'syntax', line: 9, message: /unmatched '\)'/ },
  },
  {
    name: '100,000 nested brackets',
    make: () => bytes(dumpWith(['y = ' + '['.repeat(100000) + ']'.repeat(100000)])),
    refused: { kind: 'syntax', line: 8, message: /too many nested parentheses/ },
  },
  {
    name: '200,000 chained powers (each nests to the right)',
    make: () => bytes(dumpWith(['y = ' + Array(200000).fill('2').join(' ** ')])),
    refused: { kind: 'syntax', line: 8, message: /expression nested too deeply \(more than 1000 levels\)/ },
  },
  {
    name: '150 subscripts nested around an index that cannot be read',
    make: () => bytes(dumpWith(['y = ' + 'x['.repeat(150) + '1 2' + ']'.repeat(150)])),
    refused: { kind: 'syntax', line: 8, message: /invalid syntax/ },
  },
  {
    name: '200,000 unary minus signs',
    make: () => bytes(dumpWith(['y = ' + '-'.repeat(200000) + '1'])),
    refused: { kind: 'syntax', line: 8, message: /expression nested too deeply \(more than 1000 levels\)/ },
  },
  {
    name: 'a single 10 MB line',
    make: () => bytes(dumpWith([vecTile('t', 0, 64), 'y = f(' + 't, '.repeat(3_500_000) + 't)', 'z = 1'])),
    big: true,
    check: (m) => assert.deepEqual([m.functions[0].boxes[0].start, m.functions[0].boxes[0].end], [8, 9]),
  },
  {
    name: '1,000,000 short lines',
    make: () => bytes(dumpWith([vecTile('t', 0, 64), ...Array(1_000_000).fill('y = t')])),
    big: true,
    check: (m) => assert.deepEqual([m.functions[0].boxes[0].end, m.functions[0].src_end], [1_000_008, 1_000_008]),
  },
  {
    name: 'an offset beyond 2^53',
    make: () => bytes(dumpWith([vecTile('t', '9007199254740993', 64)])),
    refused: { kind: 'limit', line: 8, message: /MemRef offset or size on line 8 is beyond 2\^53/ },
  },
  {
    name: 'negative offsets and sizes',
    make: () => bytes(dumpWith([vecTile('a', -64, 128), vecTile('b', 256, -8)])),
    check: (m) => {
      const [fn] = m.functions;
      assert.deepEqual(fn.boxes.map((b) => [b.name, b.offset, b.size, b.over_capacity]), [['a', -64, 128, true], ['b', 256, -8, true]]);
      assert.equal(fn.spaces[0].over_capacity, 2);
    },
  },
  {
    name: 'a tile beyond the capacity',
    make: () => bytes(dumpWith([vecTile('inside', 0, 4096), vecTile('beyond', 188000, 4096)])),
    check: (m) => {
      const [fn] = m.functions;
      assert.deepEqual(fn.boxes.map((b) => [b.name, b.over_capacity]), [['inside', false], ['beyond', true]]);
      assert.deepEqual([fn.spaces[0].hwm, fn.spaces[0].limit, fn.spaces[0].over_capacity], [192096, 188416, 1]);
    },
  },
  {
    name: 'a name of 100,000 characters',
    make: () => bytes(dumpWith([vecTile('n'.repeat(100000), 0, 64)])),
    check: (m) => assert.equal(m.functions[0].boxes[0].name.length, 100000),
  },
  {
    name: 'an old-format dump that is not valid Python: read, what only the printer writes noted',
    make: () => readFileSync(join(corpus, 'real', 'qwen3_32b_decode__13_after_AllocateMemoryAddr.py')),
    check: (m) => {
      assert.equal(m.note_count, 13);
      assert.deepEqual(m.functions.map((fn) => fn.boxes.length), [1, 1, 4]);
    },
  },
  {
    name: 'a dump from before address allocation',
    make: () => readFileSync(join(corpus, 'real', 'decode_fwd__30_after_InitMemRef.py')),
    refused: { kind: 'unallocated', message: /the bases of a space all start at offset 0 in copy_hidden, .*predates AllocateMemoryAddr/ },
  },
];

export { good };
