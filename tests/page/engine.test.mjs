// The page's engine (web/engine/engine.js) against stand-in workers: which worker
// a comparison's diff goes to, when a worker is stopped for its heap, the
// bytes a worker read of a File kept for the page, and a refusal naming
// its side. The workers' own answers are tested in the page suites.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, test } from 'node:test';

import { root } from '../support/helpers.mjs';

/** Stand-in workers: what each was sent, whether it was stopped. */
const made = [];
globalThis.Worker = class {
  constructor(url, { name }) {
    Object.assign(this, { name, sent: [], stopped: false });
    made.push(this);
  }

  postMessage(message) {
    this.sent.push(message);
  }

  terminate() {
    this.stopped = true;
  }
};
globalThis.URL.createObjectURL = () => 'blob:worker';
globalThis.URL.revokeObjectURL = () => {};

const { createEngine } = await import('../../web/engine/engine.js');

const MB = 1024 * 1024;
/** The core's largest input (include/memory_map.h): the engine's upper
 * bound for a read into the heap. */
const MAX_INPUT_BYTES = (() => {
  const header = readFileSync(join(root, 'include', 'memory_map.h'), 'utf8');
  const [, mib] = /#define MM_MAX_INPUT_BYTES \(\(size_t\)(\d+) \* 1024 \* 1024\)/.exec(header);
  return Number(mib) * MB;
})();
const modelJson = (dump) => new TextEncoder().encode(JSON.stringify({ dump, functions: [] })).buffer;
/** Worker `w` answers its request of `type` (the last one sent). */
function answer(w, type, data) {
  const request = w.sent.findLast((m) => m.type === type);
  w.onmessage({ data: { id: request.id, ...data } });
}
const sideAnswer = (name, heapMB) => ({ json: modelJson(name), side: new ArrayBuffer(8), dump: new ArrayBuffer(3), coreMs: 1, readMs: 1, heapBytes: heapMB * MB });
const file = () => ({ file: { size: 3 }, bytes: null });
const running = () => made.filter((w) => !w.stopped);

describe('a comparison on two workers', () => {
  beforeEach(() => { made.length = 0; });

  test('the diff goes to the worker done first; each dump is sent as its File and gets the bytes read back', async () => {
    const engine = createEngine('');
    const [old, young] = [file(), file()];
    const result = engine.compare(old, young, { old: {}, new: {} });
    const [first, second] = made;
    assert.deepEqual([first.sent[0].file, second.sent[0].file], [old.file, young.file]);
    answer(second, 'side', sideAnswer('new', 40));
    answer(first, 'side', sideAnswer('old', 40));
    assert.ok(old.bytes instanceof ArrayBuffer && young.bytes instanceof ArrayBuffer);
    assert.deepEqual([first.sent.at(-1).type, second.sent.at(-1).type], ['side', 'diff']);
    answer(second, 'diff', { json: new TextEncoder().encode('{"functions":[]}').buffer, heapBytes: 40 * MB });
    const data = await result;
    assert.deepEqual([data.old.dump, data.new.dump], ['old', 'new']);
  });

  test('a worker stopped for its heap as its side came: the diff goes to the other, no worker is started for it', async () => {
    const engine = createEngine('');
    const result = engine.compare(file(), file(), { old: {}, new: {} });
    const [first, second] = made;
    answer(first, 'side', sideAnswer('old', 200)); // past the recycling size, nothing else asked of it
    assert.ok(first.stopped);
    answer(second, 'side', sideAnswer('new', 40));
    assert.equal(made.length, 2, 'no fresh worker');
    assert.equal(second.sent.at(-1).type, 'diff');
    answer(second, 'diff', { json: new TextEncoder().encode('{"functions":[]}').buffer, heapBytes: 40 * MB });
    await result;
    assert.deepEqual(running(), [second]);
  });

  test('a side refused before its model (a file that cannot be read) names its side', async () => {
    const engine = createEngine('');
    const result = engine.compare(file(), file(), { old: {}, new: {} });
    answer(made[1], 'side', { error: { kind: 'unreadable', message: 'cannot read the file: gone' }, dump: null });
    answer(made[0], 'side', sideAnswer('old', 40));
    await assert.rejects(result, (error) => error.kind === 'unreadable' && error.side === 'new');
  });
});

describe('a big dump read into the core\'s heap', () => {
  beforeEach(() => { made.length = 0; });
  /** A File of `size` bytes (not read) whose arrayBuffer() the page calls: `bytes`, or a failure. */
  const bigFile = (size, bytes = new ArrayBuffer(5)) => ({
    file: { size, reads: 0, arrayBuffer() { this.reads++; return bytes instanceof Error ? Promise.reject(bytes) : Promise.resolve(bytes); } },
    bytes: null,
  });
  /** An engine whose first worker's core has started (it said so). */
  const readyEngine = async () => {
    const engine = createEngine('');
    const backends = engine.backends();
    made[0].onmessage({ data: { ready: true } });
    answer(made[0], 'backends', { result: [] });
    await backends;
    return engine;
  };
  const heapAnswer = (name, length) => ({ json: modelJson(name), coreMs: 1, readMs: 1, heapBytes: 20 * MB, intoHeap: true, length });
  // The second workers these engines start once idle, started before the next test.
  const idleStarts = () => new Promise((resolve) => setTimeout(resolve));

  test('from 2 MB to the core\'s largest input the worker reads it into the heap and the page reads it for itself; others are read whole and handed back', async () => {
    const engine = await readyEngine();
    const [worker] = made;
    for (const size of [2 * MB, MAX_INPUT_BYTES]) {
      const big = bigFile(size);
      const model = engine.analyze(big, {});
      assert.equal(worker.sent.at(-1).intoHeap, true, `${size} bytes`);
      assert.equal(big.file.reads, 1, 'the page reads it at once, as the worker does');
      answer(worker, 'analyze', heapAnswer('big', 5));
      assert.equal((await model).dump, 'big');
      assert.equal(big.bytes.byteLength, 5, 'the page\'s own read');
      assert.equal(engine.stats.intoHeap, true);
    }

    for (const size of [2 * MB - 1, MAX_INPUT_BYTES + 1]) {
      const whole = bigFile(size);
      const next = engine.analyze(whole, {});
      assert.equal(worker.sent.at(-1).intoHeap, undefined, `${size} bytes`);
      assert.equal(whole.file.reads, 0);
      answer(worker, 'analyze', { json: modelJson('whole'), dump: new ArrayBuffer(3), coreMs: 1, readMs: 1, heapBytes: 20 * MB });
      await next;
      assert.equal(whole.bytes.byteLength, 3, 'the bytes the worker read');
      assert.equal(engine.stats.intoHeap, false);
    }
    await idleStarts();
  });

  test('before the worker\'s core has started, a big file is read whole by the worker alone', async () => {
    const engine = createEngine('');
    const big = bigFile(3 * MB);
    const model = engine.analyze(big, {});
    assert.equal(made[0].sent.at(-1).intoHeap, undefined);
    assert.equal(big.file.reads, 0, 'no second read');
    made[0].onmessage({ data: { ready: true } }); // too late for this one
    answer(made[0], 'analyze', { json: modelJson('big'), dump: new ArrayBuffer(3), coreMs: 1, readMs: 1, heapBytes: 20 * MB });
    await model;
    assert.equal(big.bytes.byteLength, 3);
    engine.analyze(bigFile(3 * MB), {});
    assert.equal(made[0].sent.at(-1).intoHeap, true, 'the next one goes into the heap');
    await idleStarts();
  });

  /** The core's split form of a dump of one function on lines 1-2 (its
   * body before the NUL, the model after). */
  const splitJson = (dump) => {
    const body = JSON.stringify({ boxes: [], allocations: [], live: [] });
    const head = { name: 'f', spaces: [], reserved_only_spaces: [], body: [0, body.length], source_bytes: [0, 13], src_start: 1, src_end: 2 };
    return new TextEncoder().encode(`${body}\0${JSON.stringify({ dump, functions: [head] })}`).buffer;
  };
  const text = (s) => new TextEncoder().encode(s).buffer;
  const readiedBoth = async () => {
    const engine = await readyEngine();
    await idleStarts();
    made[1].onmessage({ data: { ready: true } });
    return engine;
  };
  const sideFollowed = (name, heapMB = 40) => ({ json: splitJson(name), side: new ArrayBuffer(8), bytesFollow: true, coreMs: 1, readMs: 1, heapBytes: heapMB * MB, intoHeap: true, length: 13 });
  const sideId = (w) => w.sent.findLast((m) => m.type === 'side').id;

  test('a comparison\'s big side shows before its bytes: they come next, and its source lines with them', async () => {
    const engine = await readiedBoth();
    const [old, young] = [bigFile(3 * MB), bigFile(3 * MB)];
    const compared = engine.compare(old, young, { old: {}, new: {} });
    answer(made[0], 'side', sideFollowed('old'));
    answer(made[1], 'side', sideFollowed('new'));
    answer(made[0], 'diff', { json: new TextEncoder().encode('{"functions":[]}').buffer, heapBytes: 40 * MB });
    const data = await compared;
    assert.deepEqual([data.old.functions[0].source, old.bytes], [null, null]);
    made[0].onmessage({ data: { id: sideId(made[0]), handedBack: text('def f():\n  x\n') } });
    await data.old.sourceReady;
    assert.deepEqual(data.old.functions[0].source, ['def f():', '  x']);
    assert.equal(old.bytes.byteLength, 13);
    assert.equal(data.new.functions[0].source, null, 'the other side\'s still to come');
    assert.deepEqual([old.file.reads, young.file.reads], [0, 0]);
    await idleStarts();
  });

  test('a worker that owes a side\'s bytes is stopped for its heap only once it has sent them; one that fails, the page reads the file', async () => {
    const engine = await readiedBoth();
    const [old, young] = [bigFile(3 * MB, text('def f():\n  y\n')), bigFile(3 * MB)];
    const compared = engine.compare(old, young, { old: {}, new: {} });
    answer(made[0], 'side', sideFollowed('old'));
    answer(made[1], 'side', sideFollowed('new', 200)); // past the recycling size
    assert.equal(made[1].stopped, false, 'it owes the bytes');
    answer(made[0], 'diff', { json: new TextEncoder().encode('{"functions":[]}').buffer, heapBytes: 40 * MB });
    const data = await compared;
    made[1].onmessage({ data: { id: sideId(made[1]), handedBack: text('def f():\n  x\n') } });
    assert.equal(made[1].stopped, true, 'stopped once they are sent');
    made[0].onerror({ preventDefault() {}, message: 'gone' });
    assert.equal(await data.old.sourceReady, null);
    assert.equal(old.file.reads, 1);
    assert.deepEqual(data.old.functions[0].source, ['def f():', '  y']);
    await idleStarts();
    assert.deepEqual(made.slice(2).map((w) => [w.name, w.stopped]), [['second', false]], 'the second started again once idle (the first waits for a request)');
  });

  test('a worker that could not copy a side\'s bytes: the page reads the file, and says so if it changed', async () => {
    const engine = await readiedBoth();
    const [old, young] = [bigFile(3 * MB, text('def f():\n  y\n')), bigFile(3 * MB, text('def f():\n  longer now\n'))];
    const compared = engine.compare(old, young, { old: {}, new: {} });
    answer(made[0], 'side', sideFollowed('old'));
    answer(made[1], 'side', sideFollowed('new'));
    answer(made[0], 'diff', { json: new TextEncoder().encode('{"functions":[]}').buffer, heapBytes: 40 * MB });
    const data = await compared;
    made[0].onmessage({ data: { id: sideId(made[0]), handedBack: null } });
    made[1].onmessage({ data: { id: sideId(made[1]), handedBack: null } });
    assert.equal(await data.old.sourceReady, null);
    assert.deepEqual(data.old.functions[0].source, ['def f():', '  y']);
    assert.match(await data.new.sourceReady, /the file changed as it was read/);
    assert.equal(data.new.functions[0].source, null);
    assert.deepEqual([old.file.reads, young.file.reads], [1, 1]);
    await idleStarts();
  });

  test('the page\'s read failing (the file gone) or not the worker\'s length refuses the dump as unreadable', async () => {
    const engine = await readyEngine();
    const gone = engine.analyze(bigFile(3 * MB, new Error('gone')), {});
    answer(made[0], 'analyze', heapAnswer('big', 5));
    await assert.rejects(gone, (error) => error.kind === 'unreadable' && /cannot read the file: gone/.test(error.message));
    const changed = engine.analyze(bigFile(3 * MB), {});
    answer(made[0], 'analyze', heapAnswer('big', 6));
    await assert.rejects(changed, (error) => error.kind === 'unreadable' && /the file changed as it was read/.test(error.message));
    await idleStarts();
    await idleStarts();
  });

  test('a comparison\'s big sides: read into the heaps, the page reads neither file; bytes that come with an answer are the dump\'s', async () => {
    const engine = await readyEngine();
    await idleStarts();
    made[1].onmessage({ data: { ready: true } });
    const [old, young] = [bigFile(3 * MB), bigFile(3 * MB)];
    const compared = engine.compare(old, young, { old: {}, new: {} });
    assert.deepEqual(made.map((w) => [w.sent.at(-1).intoHeap, w.sent.at(-1).handBack]), [[true, true], [true, true]]);
    assert.deepEqual([old.file.reads, young.file.reads], [0, 0]);
    answer(made[0], 'side', { ...sideAnswer('old', 40), dump: new ArrayBuffer(7), intoHeap: true, length: 7 });
    answer(made[1], 'side', { ...sideAnswer('new', 40), dump: new ArrayBuffer(9), intoHeap: true, length: 9 });
    answer(made[0], 'diff', { json: new TextEncoder().encode('{"functions":[]}').buffer, heapBytes: 40 * MB });
    await compared;
    assert.deepEqual([old.bytes.byteLength, young.bytes.byteLength], [7, 9]);
    assert.deepEqual([old.file.reads, young.file.reads], [0, 0]);

    // A side that comes without them (a worker's fault) is refused, not shown without its source.
    const bare = engine.compare(bigFile(3 * MB), bigFile(3 * MB), { old: {}, new: {} });
    answer(made[0], 'side', sideAnswer('old', 40));
    answer(made[1], 'side', { ...sideAnswer('new', 40), dump: null, intoHeap: true, length: 5 });
    await assert.rejects(bare, (error) => error.kind === 'internal' && error.side === 'new' && /no bytes/.test(error.message));
    await idleStarts();
  });
});

describe('the second worker, started ahead of a comparison', () => {
  beforeEach(() => { made.length = 0; });
  const tick = () => new Promise((resolve) => setTimeout(resolve));
  const loaded = async () => {
    const engine = createEngine('');
    const backends = engine.backends(); // the page asks for the backends as it loads
    answer(made[0], 'backends', { result: [] });
    await backends;
    await tick();
    return engine;
  };

  test('started once the page is idle with nothing asked', async () => {
    await loaded();
    assert.deepEqual(made.map((w) => w.name), ['first', 'second']);
  });

  test('a dump dropped while it starts stops it; it starts again once the dump is shown', async () => {
    const engine = await loaded();
    const [first, second] = made;
    const model = engine.analyze(file(), {});
    assert.ok(second.stopped, 'the dump has both cores');
    answer(first, 'analyze', { json: modelJson('d'), dump: new ArrayBuffer(3), coreMs: 1, readMs: 1, heapBytes: 20 * MB });
    await model;
    await tick();
    assert.deepEqual(running().map((w) => w.name), ['first', 'second']);
  });

  test('warm, it is kept: a comparison after the dump finds it ready', async () => {
    const engine = await loaded();
    const [first, second] = made;
    second.onmessage({ data: { warm: true } });
    const model = engine.analyze(file(), {});
    assert.equal(second.stopped, false);
    answer(first, 'analyze', { json: modelJson('d'), dump: new ArrayBuffer(3), coreMs: 1, readMs: 1, heapBytes: 20 * MB });
    await model;
    engine.compare(file(), file(), { old: {}, new: {} });
    assert.equal(made.length, 2);
    assert.equal(second.sent.at(-1).type, 'side');
  });
});

describe('a build\'s cases, in chunks on both workers', () => {
  beforeEach(() => { made.length = 0; });
  /** `n` cases whose bytes come when `release(i)` is called (or fail with `fail(i)`). */
  const pendingCases = (n) => {
    const gates = [];
    const cases = Array.from({ length: n }, (_, i) => ({
      bytes: new Promise((resolve, reject) => { gates[i] = { resolve: () => resolve(new ArrayBuffer(4)), reject }; }),
      options: { caseName: `c${i}` },
    }));
    return { cases, release: (i) => gates[i].resolve(), fail: (i, error) => gates[i].reject(error) };
  };
  const buildsSent = () => made.flatMap((w) => w.sent.filter((m) => m.type === 'build'));
  const answerBuild = (message) => {
    const w = made.find((x) => x.sent.includes(message));
    w.onmessage({ data: { id: message.id, result: message.cases.map((c) => ({ cases: [{ name: c.options.caseName }] })), coreMs: 1, heapBytes: MB } });
  };
  const tick = () => new Promise((resolve) => setTimeout(resolve));

  test('each chunk of 64 goes as soon as its bytes are in, to the workers in turn; the results in case order; progress as chunks finish', async () => {
    const engine = createEngine('');
    const { cases, release } = pendingCases(130);
    const shares = [];
    const result = engine.build(cases, {}, (share) => shares.push(share));
    for (let i = 64; i < 128; i++) release(i); // the second chunk's bytes first
    await tick();
    assert.deepEqual(buildsSent().map((m) => m.cases[0].options.caseName), ['c64']);
    for (let i = 0; i < 64; i++) release(i);
    for (const i of [128, 129]) release(i);
    await tick();
    const sent = buildsSent();
    assert.deepEqual(sent.map((m) => m.cases.length), [64, 64, 2]);
    assert.equal(new Set(made.filter((w) => w.sent.some((m) => m.type === 'build'))).size, 2, 'both workers');
    for (const m of [...sent].reverse()) answerBuild(m); // quick chunks: no progress of their own
    const results = await result;
    assert.deepEqual(results.map((r) => r.cases[0].name), cases.map((c) => c.options.caseName));
    assert.equal(shares.at(-1), 1);
    assert.ok(shares.length >= 3, `a share per chunk done: ${shares}`);
  });

  test('a newer action, or a file that cannot be read, sends no more chunks; the read\'s error is the build\'s', async () => {
    const engine = createEngine('');
    let wanted = true;
    const superseded = pendingCases(128);
    const stale = engine.build(superseded.cases, {}, null, () => wanted);
    wanted = false;
    for (let i = 0; i < 128; i++) superseded.release(i);
    await assert.rejects(stale, (error) => error.kind === 'superseded');
    assert.equal(buildsSent().length, 0);

    const unreadable = pendingCases(192);
    const failing = engine.build(unreadable.cases, {});
    unreadable.fail(70, new Error('cannot read c70: gone'));
    for (let i = 0; i < 192; i++) if (i !== 70) unreadable.release(i);
    await assert.rejects(failing, /cannot read c70: gone/);
    await tick();
    assert.ok(buildsSent().length <= 1, `at most the chunk read before the failure: ${buildsSent().length}`);
  });
});
