// Names with non-ASCII characters, against CPython's own verdict: a name
// Python refuses is refused with its message and line; one it accepts is
// read as written, or refused with a clear message when Python would read
// it as another name (NFKC normalisation, PEP 3131), never read wrongly.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';

import { boxesByName, dumpWith, model, tileType } from '../support/helpers.mjs';

const tile = `t: ${tileType('Vec', 'm', 0, 64)} = f()`;
const withName = (name) => dumpWith([tile, `${name} = t`]);

/** CPython's verdict on each text: null when it parses, else [line, message]. */
function cpython(texts) {
  const script = `
import ast, json, sys
out = []
for text in json.load(sys.stdin):
    try:
        ast.parse(text)
        out.append(None)
    except SyntaxError as e:
        out.append([e.lineno, e.msg])
json.dump(out, sys.stdout)
`;
  const result = spawnSync('python3', ['-c', script], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(result.status, 0, `python3 failed: ${result.error ?? result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Code points to try: every 5th below U+3100, then a fixed-seed sample of the rest. */
function codePoints() {
  const points = [];
  for (let cp = 0xa0; cp < 0x3100; cp += 5) points.push(cp);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  while (points.length < 2500) {
    const cp = 0x3100 + (next() % (0x110000 - 0x3100));
    if (cp < 0xd800 || cp > 0xdfff) points.push(cp);
  }
  return [...points, 0x2118, 0x212f, 0x309b, 0x663, 0xfb01, 0x1d400, 0x4e2d];
}

describe('non-ASCII names against CPython', () => {
  test('first and later characters: refused where CPython refuses, same line and message; accepted as written or refused as NFKC', async () => {
    const names = codePoints().flatMap((cp) => [String.fromCodePoint(cp) + 'x', 'x' + String.fromCodePoint(cp)]);
    const verdicts = cpython(names.map(withName));
    let accepted = 0;
    let normalised = 0;
    for (const [i, name] of names.entries()) {
      const where = `${name} (U+${name.codePointAt(name[0] === 'x' ? 1 : 0).toString(16)})`;
      let ours = null;
      try {
        const m = await model(withName(name));
        assert.equal(boxesByName(m).t.end, 9, `${where}: the read on line 9`);
      } catch (error) {
        ours = error;
      }
      const theirs = verdicts[i];
      if (theirs) {
        assert.ok(ours, `${where}: CPython refuses (${theirs[1]}), ours accepted`);
        assert.equal(ours.line, theirs[0], where);
        assert.equal(ours.message, theirs[1], where);
      } else if (ours) {
        assert.equal(ours.kind, 'limit', `${where}: ${ours.message}`);
        assert.match(ours.message, /normalises names to NFKC/, where);
        // Without composition tables, a combining or composing mark is refused too (docs/model.md,
        // refusals): the Hangul vowel and trailing jamo compose with the jamo before them.
        assert.ok(name.normalize('NFKC') !== name || /[\p{M}\u1161-\u1175\u11A8-\u11C2]/u.test(name), `${where}: refused though NFKC leaves it`);
        normalised++;
      } else {
        assert.equal(name.normalize('NFKC'), name, `${where}: accepted though Python reads ${name.normalize('NFKC')}`);
        accepted++;
      }
    }
    assert.ok(accepted > 500 && normalised > 10, `accepted ${accepted}, refused as NFKC ${normalised}`);
  });
});

describe('non-ASCII names in a dump', () => {
  test('a tile named in CJK is one name: its read extends it', async () => {
    const m = await model(dumpWith([`缓冲_tile: ${tileType('Vec', 'm', 0, 64)} = f()`, 'y = 1', 'z = 缓冲_tile']));
    assert.deepEqual([m.functions[0].boxes[0].name, m.functions[0].boxes[0].end], ['缓冲_tile', 10]);
  });

  test('a Hangul syllable spelled in jamo is refused: Python reads it as the syllable', async () => {
    const cpythonReads = cpython([withName('\u1100\u1161x')]);
    assert.equal(cpythonReads[0], null, 'CPython accepts it, as 가x');
    for (const generalParser of [false, true]) {
      await assert.rejects(model(withName('\u1100\u1161x'), { generalParser }), (e) => e.kind === 'limit' && e.line === 9 && /U\+1161/.test(e.message));
    }
  });

  test('a name Python would normalise is refused, naming it and its line', async () => {
    await assert.rejects(model(withName('ﬁx')), (e) => e.kind === 'limit' && e.line === 9 &&
      e.message.startsWith("the name 'ﬁx' on line 9 holds 'ﬁ' (U+FB01), which Python reads as another character"));
  });

  test('a syntax error anywhere is reported first, on CPython\'s line: it is Python\'s verdict, and the user fixes it first', async () => {
    const texts = [['ℯx = t', 'y = = 1'], ['y = = 1', 'ℯx = t'], ['y = f"{ﬁx}"', 'z = (', 'ℯx = t']].map((lines) => dumpWith([tile, ...lines]));
    const verdicts = cpython(texts);
    for (const [i, text] of texts.entries()) {
      for (const generalParser of [false, true]) {
        await assert.rejects(model(text, { generalParser }), (e) => {
          assert.deepEqual([e.kind, e.line], ['syntax', verdicts[i][0]], `case ${i}: ${e.message} vs ${verdicts[i][1]}`);
          return true;
        });
      }
    }
  });

  test('of two names NFKC would change, the first in the file is named, in an f-string too', async () => {
    for (const [lines, name] of [[['y = f"{ﬁx}"', 'ℯx = t'], 'ﬁx'], [['ℯx = t', 'y = f"{ﬁx}"'], 'ℯx']]) {
      await assert.rejects(model(dumpWith([tile, ...lines])), (e) => e.kind === 'limit' && e.message.startsWith(`the name '${name}'`));
    }
  });
});
