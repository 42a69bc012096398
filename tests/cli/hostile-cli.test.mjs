// The catalogue of hostile and broken inputs through the CLI: the right
// model, or exit 1 with a message naming the problem and its line.
import assert from 'node:assert/strict';
import { mkdtempSync, openSync, closeSync, ftruncateSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { catalogue } from '../support/catalogue.mjs';
import { run } from '../support/helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'mm-hostile-'));

describe('hostile and broken input through the CLI', () => {
  for (const entry of catalogue) {
    test(entry.name, () => {
      const path = join(dir, `${entry.name.replace(/\W+/g, '_')}.py`);
      writeFileSync(path, entry.make());
      const result = run([path, '--json']);
      if (entry.refused) {
        const { line, message } = entry.refused;
        assert.equal(result.status, 1, result.stderr.slice(0, 300));
        assert.equal(result.stdout, '');
        assert.ok(result.stderr.startsWith(line ? `error: ${path}:${line}: ` : 'error: '), result.stderr.slice(0, 300));
        assert.match(result.stderr, message);
        const [, ...after] = result.stderr.trimEnd().split('\n');
        assert.ok(after.every((l) => l.startsWith('note: ')), 'one line of message, then notes only');
        assert.equal(after.length, entry.refused.kind === 'unallocated' ? 1 : 0, 'a dump without addresses: how to draw it anyway');
      } else {
        assert.equal(result.status, 0, result.stderr.slice(0, 300));
        entry.check(JSON.parse(result.stdout));
      }
    });
  }

  test('a file over the 256 MiB limit is refused before it is read whole, and nothing is written', () => {
    const path = join(dir, 'huge.py');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 256 * 1024 * 1024 + 1); // sparse: no disk used
    closeSync(fd);
    const out = join(dir, 'huge.json');
    const result = run([path, '--json', '-o', out]);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^error: .*huge\.py is larger than 268435456 bytes \(256 MiB\)/);
    assert.ok(!existsSync(out));
  });
});
