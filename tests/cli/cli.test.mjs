// The command line of docs/cli.md: path resolution, flags,
// outputs, messages and exit codes, through tools/memory-map (the native
// build; tests/cli/cli-builds.test.mjs holds the WASI build to it).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { usage } from '../../web/model/layout.js';
import { cli, corpus, corpusDumps, dumpWith, root, run, tileType } from '../support/helpers.mjs';

const sample = join(corpus, 'real', 'vector_division.py');
const refused = join(corpus, 'real', 'pa3__12_after_AllocateMemoryAddr.py');

/** A build_output/<case>/ with dumps numbered 9 and 10 and a ptoas/ folder. */
function makeCase({ arch = 'a5' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mm-case-'));
  mkdirSync(join(dir, 'passes_dump'));
  mkdirSync(join(dir, 'ptoas'));
  const tile = (base) => [`t: ${tileType('Vec', base, 0, 64)} = pl.tile.load(x)`];
  writeFileSync(join(dir, 'passes_dump', '9_after_AllocateMemoryAddr.py'), dumpWith(tile('nine')));
  writeFileSync(join(dir, 'passes_dump', '10_after_AllocateMemoryAddr.py'), dumpWith(tile('ten')));
  writeFileSync(join(dir, 'passes_dump', '11_after_Simplify.py'), dumpWith(tile('simplify')));
  writeFileSync(join(dir, 'passes_dump', '12_after_AllocateMemoryAddr.txt'), 'not a dump');
  writeFileSync(join(dir, 'ptoas', 'b.pto'), 'module attributes {pto.target_arch = "a2a3"}');
  writeFileSync(join(dir, 'ptoas', 'a.pto'), `module attributes {pto.target_arch = "${arch}"}`);
  return dir;
}

const json = (result) => {
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
};

describe('resolving <path>', () => {
  test('a case folder picks the highest-numbered dump, numerically (10 beats 9)', () => {
    const dir = makeCase();
    const m = json(run([dir, '--json']));
    assert.equal(m.dump, '10_after_AllocateMemoryAddr.py');
    assert.equal(m.functions[0].boxes[0].base, 'ten');
  });

  test('a passes_dump/ folder resolves the same way', () => {
    const dir = makeCase();
    assert.equal(json(run([join(dir, 'passes_dump'), '--json'])).dump, '10_after_AllocateMemoryAddr.py');
  });

  test('-p / --pass-name picks another pass', () => {
    const dir = makeCase();
    assert.equal(json(run([dir, '-p', 'Simplify', '--json'])).pass_name, 'Simplify');
    assert.equal(json(run([dir, '--pass-name=Simplify', '--json'])).pass_name, 'Simplify');
  });

  test('a folder without a matching dump is an error that says how to get one', () => {
    const dir = makeCase();
    const result = run([dir, '-p', 'Nope', '--json']);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^error: no '\*_after_Nope\.py' dump under .*--dump-passes/);
    assert.equal(result.stdout, '');
  });

  test('a folder whose AllocateMemoryAddr dump is missing opens the latest pass after it, with a note', () => {
    const dir = makeCase();
    for (const n of ['9', '10']) rmSync(join(dir, 'passes_dump', `${n}_after_AllocateMemoryAddr.py`));
    writeFileSync(join(dir, 'passes_dump', '8_after_MemoryReuse.py'), readFileSync(join(dir, 'passes_dump', '11_after_Simplify.py')));
    const result = run([dir, '--json']);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(json(result).pass_name, 'Simplify');
    assert.equal(json(result).functions[0].planned, undefined, 'the compiler\'s addresses, not a packing');
    assert.match(result.stderr, /^note: no '\*_after_AllocateMemoryAddr\.py' dump under .*passes_dump: showing 11_after_Simplify\.py, the latest pass after it, which holds the addresses AllocateMemoryAddr assigned/);
    assert.equal(run([dir, '-p', 'Simplify', '--json']).stderr, '', 'asked for: nothing to tell');
  });

  test('relative paths resolve against the working directory', () => {
    const dir = makeCase();
    const m = json(run(['passes_dump/9_after_AllocateMemoryAddr.py', '--json'], { cwd: dir }));
    assert.equal(m.functions[0].boxes[0].base, 'nine');
  });

  test('a missing path is an error naming it', () => {
    const result = run(['/nonexistent/dump.py', '--json']);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^error: \/nonexistent\/dump\.py: No such file or directory/);
  });
});

describe('standard input', () => {
  const text = readFileSync(sample);

  test('- reads the dump from standard input; its name is stdin unless --name says', () => {
    const fromFile = json(run([sample, '--json']));
    const fromStdin = json(run(['-', '--json'], { input: text }));
    assert.deepEqual({ ...fromStdin, dump: fromFile.dump, pass_name: fromFile.pass_name }, fromFile);
    assert.deepEqual([fromStdin.dump, fromStdin.pass_name], ['stdin', 'stdin']);
    const named = json(run(['-', '--name', '32_after_AllocateMemoryAddr.py', '--json'], { input: text }));
    assert.deepEqual([named.dump, named.pass_name], ['32_after_AllocateMemoryAddr.py', 'AllocateMemoryAddr']);
  });

  test('--check and --summary read it too; errors name it', () => {
    const check = run(['-', '--check'], { input: text });
    assert.equal(check.status, 0, check.stderr);
    assert.match(check.stdout, /no conflicts, no tile over capacity and no unplaced tile/);
    const broken = run(['-', '--name', 'broken.py', '--check'], { input: 'x = (\n' });
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /^error: broken\.py:1: '\(' was never closed/);
  });

  test('- without -o, --json, --check or --summary is bad usage: a page needs a place', () => {
    const result = run(['-'], { input: text });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /reading standard input \(-\), give -o OUTPUT/);
  });

  test('a shell\'s <(...): read by the native CLI; under WASI a clear message', () => {
    const native = join(root, 'build', 'native', 'memory-map');
    const viaShell = (command, env = {}) => spawnSync('bash', ['-c', `"${command}" <(cat "${sample}") --check`],
      { encoding: 'utf8', env: { ...process.env, ...env } });
    const read = viaShell(native);
    assert.equal(read.status, 0, read.stderr);
    assert.match(read.stdout, /no conflicts/);
    const wasi = viaShell(cli, { MEMORY_MAP_WASI: '1' });
    assert.equal(wasi.status, 1);
    assert.match(wasi.stderr, /^error: \/dev\/fd\/\d+: the command line under Node \(WASI\) cannot open .* give it on standard input/);
  });
});

describe('backend', () => {
  test('detected from the case\'s ptoas/*.pto, first file in name order', () => {
    const m = json(run([makeCase({ arch: 'a5' }), '--json']));
    assert.deepEqual(m.backend, { name: 'Ascend950', arch: 'a5', detected: true });
  });

  test('-b overrides detection', () => {
    const m = json(run([makeCase({ arch: 'a5' }), '-b', 'Ascend910B', '--json']));
    assert.deepEqual(m.backend, { name: 'Ascend910B', arch: 'a2a3', detected: true });
  });

  test('no ptoas/: Ascend910B, assumed', () => {
    assert.deepEqual(json(run([sample, '--json'])).backend, { name: 'Ascend910B', arch: 'a2a3', detected: false });
  });

  test('an unknown -b names the known backends and exits 1', () => {
    const result = run([sample, '--backend', 'Ascend310', '--json']);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, "error: unknown backend 'Ascend310'; known backends: Ascend910B, Ascend950\n");
  });
});

describe('outputs', () => {
  /** A page template holding the data element the CLI fills in. */
  function template() {
    const path = join(mkdtempSync(join(tmpdir(), 'mm-page-')), 'page.html');
    writeFileSync(path, '<!doctype html><title>t</title><script id="memory-map-data" type="application/json"></script><p>end</p>');
    return path;
  }

  test('without -o the page goes beside the dump as <dump>.memory_map.html', () => {
    const dir = makeCase();
    const result = run([dir], { env: { MEMORY_MAP_PAGE: template() } });
    const out = join(dir, 'passes_dump', '10_after_AllocateMemoryAddr.memory_map.html');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `wrote ${out}\n`);
    const page = readFileSync(out, 'utf8');
    const data = page.match(/<script id="memory-map-data" type="application\/json">(.*)<\/script><p>end<\/p>$/s);
    assert.ok(data, 'the model sits inside the data element, the rest of the page unchanged');
    assert.equal(JSON.parse(data[1]).dump, '10_after_AllocateMemoryAddr.py');
  });

  test('-o writes the page where asked', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mm-out-')), 'map.html');
    const result = run([sample, '-o', out], { env: { MEMORY_MAP_PAGE: template() } });
    assert.equal(result.stdout, `wrote ${out}\n`);
    assert.ok(readFileSync(out, 'utf8').includes('"vector_division_incore_0"'));
  });

  test('--json -o writes the model to the file and says so', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mm-out-')), 'model.json');
    const result = run([sample, '--json', `--output=${out}`]);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, `wrote ${out}\n`);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).pass_name, 'vector_division');
  });

  test('a refusal exits 1 and writes nothing, with or without -o', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-refused-'));
    const dump = join(dir, 'pa3__12_after_AllocateMemoryAddr.py');
    copyFileSync(refused, dump);
    for (const args of [[dump], [dump, '-o', join(dir, 'x.html')], [dump, '--json', '-o', join(dir, 'x.json')]]) {
      const result = run(args, { env: { MEMORY_MAP_PAGE: template() } });
      assert.equal(result.status, 1);
      assert.match(result.stderr, /^error: .*AllocateMemoryAddr/);
      assert.equal(result.stdout, '');
    }
    assert.deepEqual(readdirSync(dir), ['pa3__12_after_AllocateMemoryAddr.py']);
  });

  test('an output that cannot be written is an error naming it, and leaves nothing behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-unwritable-'));
    const out = join(dir, 'missing-folder', 'model.json');
    const result = run([sample, '--json', '-o', out]);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, `error: cannot write ${out}: No such file or directory\n`);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('a big page (written on a second thread) has the bytes the WASI build writes as they come; an old one is replaced', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-big-'));
    // The real 480 KB dump's functions seven times under fresh names: ~3.4 MB, ~4,900 boxes.
    const lines = readFileSync(join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py'), 'utf8').split('\n');
    const first = lines.findIndex((l) => /^ {4}@/.test(l));
    const body = lines.slice(first).join('\n');
    const copies = Array.from({ length: 7 }, (_, c) => body.replace(/^( {4}def )(\w+)\(/gm, (_m, def, fn) => `${def}${fn}_r${c}(`));
    const dump = join(dir, '41_after_MaterializeRuntimeScopes.py');
    writeFileSync(dump, [lines.slice(0, first).join('\n'), ...copies].join('\n'));
    const [native, wasi] = [join(dir, 'native.html'), join(dir, 'wasi.html')];
    writeFileSync(native, 'an older page');
    assert.equal(run([dump, '-o', native]).status, 0);
    assert.equal(run([dump, '-o', wasi], { env: { MEMORY_MAP_WASI: '1' } }).status, 0);
    const page = readFileSync(native);
    assert.ok(page.length > 4 << 20, `${page.length} bytes: past the second thread's threshold`);
    assert.ok(page.equals(readFileSync(wasi)), 'the same bytes');
    assert.deepEqual(readdirSync(dir).sort(), ['41_after_MaterializeRuntimeScopes.py', 'native.html', 'wasi.html']);
  });

  test('-o a pipe writes into it and leaves it a pipe, never a file put in its place', { skip: process.platform === 'win32' }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-fifo-'));
    const fifo = join(dir, 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const reader = spawn('cat', [fifo]);
    let received = '';
    reader.stdout.on('data', (d) => { received += d; });
    const closed = new Promise((resolve) => reader.on('close', resolve));
    const result = await new Promise((resolve) => {
      const child = spawn(cli, [sample, '--json', '-o', fifo]);
      let stdout = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.on('close', (status) => resolve({ status, stdout }));
    });
    // Had the pipe been replaced, nothing would ever open it: the reader is stopped.
    const timer = setTimeout(() => reader.kill(), 10_000);
    await closed;
    clearTimeout(timer);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, `wrote ${fifo}\n`);
    assert.equal(JSON.parse(received).pass_name, 'vector_division');
    assert.ok(lstatSync(fifo).isFIFO(), 'still a pipe');
    assert.deepEqual(readdirSync(dir), ['pipe']);
  });

  test('a syntax error names the file and the line', () => {
    const dump = join(mkdtempSync(join(tmpdir(), 'mm-syntax-')), 'broken.py');
    const text = readFileSync(join(corpus, 'real', 'vector_division.py'), 'utf8').trimEnd();
    writeFileSync(dump, `${text}\nx = (1,\n`);
    const line = text.split('\n').length + 1;
    const result = run([dump, '--json']);
    assert.equal(result.status, 1);
    assert.ok(result.stderr.startsWith(`error: ${dump}:${line}: '(' was never closed`), result.stderr);
  });

  test('a missing page template is a clear error and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-notemplate-'));
    const dump = join(dir, 'd.py');
    copyFileSync(sample, dump);
    const result = run([dump], { env: { MEMORY_MAP_PAGE: join(dir, 'missing.html') } });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /page template .* is missing: run `npm run build`/);
    assert.ok(!existsSync(join(dir, 'd.memory_map.html')));
  });
});

describe('usage', () => {
  test('bad usage exits 2 with the usage line', () => {
    for (const args of [[], ['--bogus', sample], [sample, '-o'], [sample, 'extra']]) {
      const result = run(args);
      assert.equal(result.status, 2, args.join(' '));
      assert.match(result.stderr, /^usage: memory-map <path> \[-o OUTPUT\] \[-p PASS_NAME\] \[-b BACKEND\] \[--name NAME\] \[--json\]/);
    }
  });

  test('--help prints the flags and exits 0', () => {
    const result = run(['--help']);
    assert.equal(result.status, 0);
    for (const flag of ['--output', '--pass-name', '--backend', '--json', '--check', '--summary']) assert.ok(result.stdout.includes(flag));
  });
});

describe('--check and --summary', () => {
  // Two bases sharing Vec bytes while both live (lines 8-9), and a 2 KB Bias
  // tile on a backend whose Bias holds 1 KB.
  const anomalous = dumpWith([
    `a: ${tileType('Vec', 'm1', 0, 512)} = pl.tile.load(x)`,
    `b: ${tileType('Vec', 'm2', 256, 512)} = pl.tile.add(a, a)`,
    `bias: ${tileType('Bias', 'm3', 0, 2048)} = pl.tile.load(b, a)`, // a read after b is bound: no handoff
    'return bias',
  ]);
  const write = (text) => {
    const file = join(mkdtempSync(join(tmpdir(), 'mm-check-')), '32_after_AllocateMemoryAddr.py');
    writeFileSync(file, text);
    return file;
  };

  test('--check lists every conflict and tile over capacity with file and line, and exits 3', () => {
    const file = write(anomalous);
    const result = run([file, '--check']);
    assert.equal(result.status, 3, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.equal(
      lines[0],
      `${file}:9: conflict in kernel: Vec 'a' (m1, bytes 0..512, lines 8-10) shares bytes with 'b' (m2, bytes 256..768, lines 9-10) while both are live`,
    );
    assert.equal(lines[1], `${file}:10: over capacity in kernel: Bias 'bias' (m3, bytes 0..2048, lines 10-11) lies outside the capacity 0..1024`);
    assert.equal(lines[2], '2 problems: conflicts, tiles over capacity or unplaced tiles');
    assert.deepEqual(readdirSync(join(file, '..')), ['32_after_AllocateMemoryAddr.py'], 'no page written without -o');
  });

  test('--check exits 0 on a clean dump and on every clean corpus dump', () => {
    const result = run([sample, '--check']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^no conflicts, no tile over capacity and no unplaced tile in \d+ functions?\n$/);
    const real = join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py');
    assert.equal(run([real, '--check']).stdout, 'no conflicts, no tile over capacity and no unplaced tile in 38 functions\n');
  });

  test('--check agrees with the model: one line per conflicting pair and per box over capacity', () => {
    const file = join(corpus, 'generated', 'gen1_038__32_after_AllocateMemoryAddr.py');
    const m = json(run([file, '--json']));
    let pairs = 0;
    let over = 0;
    for (const fn of m.functions) {
      for (const box of fn.boxes) {
        if (box.over_capacity) over++;
        pairs += (box.conflicts_with ?? []).length;
      }
    }
    assert.ok(pairs > 0 && over > 0, 'the fixture has both kinds');
    const result = run([file, '--check']);
    assert.equal(result.status, 3);
    assert.equal((result.stdout.match(/: conflict in /g) ?? []).length, pairs / 2);
    assert.equal((result.stdout.match(/: over capacity in /g) ?? []).length, over);
  });

  test('--summary prints HWM, capacity, usage, reserved, headroom, peak live and fragmentation per function and space', () => {
    const result = run([write(anomalous), '--summary']);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.stdout.split('\n'), [
      'function  space   hwm  capacity   usage  reserved  headroom  peak live  fragmentation  peak line',
      'kernel    Vec     768    188416    0.4%         0    187648        768              0          9',
      'kernel    Bias   2048      1024  200.0%         0     -1024       2048              0         10',
      '',
      // b shares a's bytes: the lowest gap free over its lifetime is above a.
      'function  space  mark set by  lines   hwm  lowest gap  hwm then  saved',
      'kernel    Vec    b             9-10   768         512      1024   -256',
      'kernel    Bias   bias         10-11  2048           0      2048      0',
      '',
    ]);
  });

  test('--summary agrees with the JSON, and its usage with the page\'s pills, on every corpus dump', () => {
    let rowsSeen = 0;
    for (const { dump } of corpusDumps()) {
      const result = run([dump, '--json']);
      if (result.status !== 0) continue; // refused: its message is tested elsewhere
      const m = JSON.parse(result.stdout);
      const table = run([dump, '--summary']).stdout.split('\n\n')[0];
      const rows = table.trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/));
      const expected = m.functions.flatMap((fn) => [...fn.spaces, ...fn.reserved_only_spaces].map((s) => [fn.name, s.space,
        String(s.hwm_with_reserved), String(s.limit), usage(s).percent.replace('–', '-'), String(s.reserved_bytes), String(s.headroom ?? '-'), String(s.peak_live), String(s.fragmentation)]));
      assert.deepEqual(rows.map((r) => r.slice(0, 9)), expected, dump);
      rowsSeen += rows.length;
    }
    assert.ok(rowsSeen > 100, `${rowsSeen} rows`);
  });

  test('with -o the page is written too, and the exit code still reports the check', () => {
    const file = write(anomalous);
    const out = join(file, '..', 'page.html');
    const result = run([file, '--check', '--summary', '-o', out]);
    assert.equal(result.status, 3);
    assert.ok(existsSync(out));
    assert.match(result.stdout, /^function {2}space/);
    assert.match(result.stdout, /wrote .*page\.html\n$/);
  });

  test('--json to standard output cannot be mixed with a report', () => {
    const result = run([sample, '--json', '--check']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /needs -o/);
  });

  test('a refused dump exits 1 under --check, not 0 or 3', () => {
    const result = run([join(corpus, 'real', 'decode_fwd__30_after_InitMemRef.py'), '--check']);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /predates AllocateMemoryAddr/);
  });

  test('a dump written after memory was placed that keeps nothing on chip: --check and --summary say so, exit 0', () => {
    for (const flag of ['--check', '--summary']) {
      const result = run([refused, flag]);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /pa3__12_after_AllocateMemoryAddr\.py: nothing on chip to map: the dump has no compute function \(AIC, AIV or InCore\)/);
    }
    const json = run([refused, '--json']);
    assert.equal(json.status, 1, 'still no model to write: refused as upstream refuses it');
    assert.match(json.stderr, /^error: \S*pa3__12_after_AllocateMemoryAddr\.py: nothing on chip to map/, 'which dump, though the refusal has no line');
  });
});
