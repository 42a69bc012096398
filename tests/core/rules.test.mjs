// Each rule of docs/model.md on a small hand-written dump, run
// through the WebAssembly core (the page's engine).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';

import { bodyLine, boxesByName, dumpWith, model, tileType } from '../support/helpers.mjs';

const vec = (name, base, offset, size, rest = '= pl.tile.load(x)') =>
  `${name}: ${tileType('Vec', base, offset, size)} ${rest}`;

const rejects = (promise, kind) =>
  assert.rejects(promise, (error) => {
    assert.equal(error.kind, kind, error.message);
    return true;
  });

describe('compute functions', () => {
  test('keeps AIC, AIV and InCore functions and skips every other type', async () => {
    const body = [vec('t', 'mem_vec_1', 0, 1024), 'return t'];
    for (const type of ['AIC', 'AIV', 'InCore']) {
      const m = await model(dumpWith(body, { type }));
      assert.deepEqual(m.functions.map((f) => [f.name, f.ftype]), [['kernel', type]]);
    }
    for (const type of ['Orchestration', 'Group', 'Spmd']) await rejects(model(dumpWith(body, { type })), 'no_tiles');
  });

  test('only defs directly in top-level classes count', async () => {
    const tile = tileType('Vec', 'mem_vec_1', 0, 64);
    const text = [
      'import pypto.language as pl',
      '@pl.function(type=pl.FunctionType.AIV)', // module level: not in a class
      'def loose():',
      `    a: ${tile} = pl.tile.load(x)`,
      'class Outer:',
      '    class Inner:', // nested class: not at the top level
      '        @pl.function(type=pl.FunctionType.AIV)',
      '        def deep(self):',
      `            b: ${tile} = pl.tile.load(x)`,
      '    @pl.function(type=pl.FunctionType.AIV)',
      '    async def later(self):', // async def: skipped
      `        c: ${tile} = pl.tile.load(x)`,
      '    if True:',
      '        @pl.function(type=pl.FunctionType.AIV)',
      '        def guarded(self):', // not directly in the class body
      `            d: ${tile} = pl.tile.load(x)`,
      '    @pl.function(type=pl.FunctionType.AIV)',
      '    def kept(self):',
      `        e: ${tile} = pl.tile.load(x)`,
      '',
    ].join('\n');
    const m = await model(text);
    assert.deepEqual(m.functions.map((f) => f.name), ['kept']);
  });

  test('the type comes from type= of a *.function decorator call, last component', async () => {
    const tile = tileType('Vec', 'mem_vec_1', 0, 64);
    const text = [
      'class P:',
      '    @other.function',              // not a call: no type
      '    def a(self):',
      `        t: ${tile} = f()`,
      '    @pl.kernel(type=pl.FunctionType.AIV)', // not *.function
      '    def b(self):',
      `        t: ${tile} = f()`,
      '    @pl.program',
      '    @pl.function(level=1, type=InCore)', // a bare name is a dotted name of one part
      '    def c(self):',
      `        t: ${tile} = f()`,
      '',
    ].join('\n');
    const m = await model(text);
    assert.deepEqual(m.functions.map((f) => [f.name, f.ftype]), [['c', 'InCore']]);
  });

  test('two type= (two decorators, or the keyword repeated): the last one wins, as upstream reads them', async () => {
    const tile = tileType('Vec', 'mem_vec_1', 0, 64);
    const text = [
      'class P:',
      '    @pl.function(type=pl.FunctionType.Orchestration)',
      '    @pl.function(type=pl.FunctionType.AIV)',
      '    def a(self):',
      `        t: ${tile} = f()`,
      '    @pl.function(type=pl.FunctionType.AIC, type=pl.FunctionType.Group)',
      '    def b(self):',
      `        t: ${tile} = f()`,
      '    @pl.function(type=pl.FunctionType.Group, level=1, type=pl.FunctionType.InCore)',
      '    def c(self):',
      `        t: ${tile} = f()`,
      '',
    ].join('\n');
    const m = await model(text);
    assert.deepEqual(m.functions.map((f) => [f.name, f.ftype]), [['a', 'AIV'], ['c', 'InCore']]);
  });

  test('a decorator over lines: src_start is where its expression starts, as in Python\'s ast', async () => {
    const tile = tileType('Vec', 'mem_vec_1', 0, 64);
    const text = [
      'class P:',
      '    @(',
      '        pl.function(type=pl.FunctionType.AIV)',
      '    )',
      '    def a(self):',
      `        t: ${tile} = f()`,
      '    @pl.function(',
      '        type=pl.FunctionType.AIV)',
      '    def b(self):',
      `        t: ${tile} = f()`,
      '',
    ].join('\n');
    const m = await model(text);
    assert.deepEqual(m.functions.map((f) => [f.name, f.src_start]), [['a', 3], ['b', 7]]);
  });

  test('a kept function without tiles is skipped; the others stay', async () => {
    const text = dumpWith(['x: pl.Scalar[pl.INDEX] = 1', 'return x'], { name: 'empty' }) +
      dumpWith([vec('t', 'mem_vec_1', 0, 64)], { name: 'full' }).split('\n').slice(4).join('\n');
    const m = await model(text);
    assert.deepEqual(m.functions.map((f) => f.name), ['full']);
  });

  test('src_start is the first decorator, src_end the last statement; source is verbatim', async () => {
    const text = [
      'class P:',
      '    @pl.program',
      '    @pl.function(type=pl.FunctionType.AIV)',
      '    def k(self):',
      `        t: ${tileType('Vec', 'm', 0, 64)} = f(  "a  b" )\t# tab and comment`,
      '        return t',
      '        # a trailing comment is not part of it',
      '',
      'x = 1',
      '',
    ].join('\n');
    const [fn] = (await model(text)).functions;
    assert.equal(fn.src_start, 2);
    assert.equal(fn.src_end, 6);
    assert.deepEqual(fn.source, text.split('\n').slice(1, 6));
  });
});

describe('tiles', () => {
  test('a Tile annotation with a MemRef and a Mem space is a tile; DDR and tensors are not', async () => {
    const m = await model(dumpWith([
      vec('a', 'mem_vec_1', 0, 64),
      `b: pl.Tile[[4], pl.FP32, pl.MemRef(mem_ddr_1, 0, 64), pl.Mem.DDR] = f()`,
      `c: pl.Tensor[[4], pl.FP32, pl.MemRef(mem_vec_2, 0, 64), pl.Mem.Vec] = f()`,
      `d: pl.Tile[[4], pl.FP32, pl.Mem.Vec] = f()`, // no MemRef
      `e: pl.Tile[[4], pl.FP32, pl.MemRef(mem_vec_3, 0), pl.Mem.Vec] = f()`, // two arguments
      `f2: pl.Tile[[4], pl.FP32, pl.MemRef(mem_vec_4, 0, 64)] = f()`, // no space
      `g: pl.Tile[[4], pl.FP32, MemRef(mem_vec_5, 0, 64), pl.Mem.Vec] = f()`, // not a dotted name
    ]));
    assert.deepEqual(Object.keys(boxesByName(m)), ['a']);
  });

  test('MemRef arguments: bare name, string constant, pl.const, negated literals', async () => {
    const m = await model(dumpWith([
      `a: pl.Tile[[4], pl.FP32, pl.MemRef("mem_\\x76ec_1", pl.const(4096, pl.INT64), 0x40), pl.Mem.Vec] = f()`,
      `b: pl.Tile[[4], pl.FP32, pl.MemRef('a' "b", -0, 1_024), pl.Mem.Vec] = f()`,
      `c: pl.Tile[[4], pl.FP32, pl.MemRef(mem_vec_9, pl.const(-64), 64), pl.Mem.Vec] = f()`,
    ]));
    const boxes = boxesByName(m);
    assert.deepEqual([boxes.a.base, boxes.a.offset, boxes.a.size], ['mem_vec_1', 4096, 64]);
    assert.deepEqual([boxes.b.base, boxes.b.offset, boxes.b.size], ['ab', 0, 1024]);
    assert.deepEqual([boxes.c.base, boxes.c.offset], ['mem_vec_9', -64]);
  });

  test('the first usable MemRef and the first space in breadth-first order win', async () => {
    // The shallow MemRef comes later in the source than the nested one, and
    // an unusable MemRef (a variable offset) comes first of all.
    const ann = 'pl.Tile[[4], pl.FP32, pl.MemRef(bad, off, 64), pl.Wrap(pl.MemRef(deep, 0, 32), pl.Mem.Mat), ' +
      'pl.MemRef(shallow, 128, 64), pl.Mem.Vec]';
    const m = await model(dumpWith([`t: ${ann} = f()`]));
    const { t } = boxesByName(m);
    assert.deepEqual([t.base, t.offset, t.size, t.space], ['shallow', 128, 64, 'Vec']);
  });

  test('shape is the first element when it is a list of integers; dtype is the first upper-case pl.X in places 2-3', async () => {
    const m = await model(dumpWith([
      `a: pl.Tile[[16, pl.const(8), -1], pl.BF16, pl.MemRef(m1, 0, 64), pl.Mem.Vec] = f()`,
      `b: pl.Tile[[n, 4], pl.fp16, pl.MemRef(m2, 64, 64), pl.Mem.Vec, pl.INT8] = f()`,
      `c: pl.Tile[[4], x.y.FP32, pl.MemRef(m3, 128, 64), pl.Mem.Vec] = f()`,
    ]));
    const boxes = boxesByName(m);
    assert.deepEqual([boxes.a.shape, boxes.a.dtype], [[16, 8, -1], 'BF16']);
    assert.deepEqual([boxes.b.shape, boxes.b.dtype], [[], '']); // pl.INT8 is 5th, pl.fp16 is lower case
    assert.deepEqual([boxes.c.shape, boxes.c.dtype], [[4], '']); // three parts
  });

  test('op: the called dotted name without pl.; "" otherwise; "param" for parameters', async () => {
    const m = await model(dumpWith([
      vec('a', 'm1', 0, 64, '= pl.tile.load(x)'),
      vec('b', 'm2', 64, 64, '= self.helper(a)'),
      vec('c', 'm3', 128, 64, '= a'),
      vec('d', 'm4', 192, 64, ''),
      vec('e', 'm5', 256, 64, '= pl . yield_ (a)'),
      'return a, b, c, d, e, p',
    ], { params: `, p: ${tileType('Vec', 'm6', 320, 64)}` }));
    const boxes = boxesByName(m);
    assert.deepEqual(['a', 'b', 'c', 'd', 'e', 'p'].map((n) => boxes[n].op),
      ['tile.load', 'self.helper', '', '', 'yield_', 'param']);
  });
});

describe('lexical lifetime', () => {
  test('a binding covers its whole statement; a parameter its name and annotation', async () => {
    const m = await model(dumpWith([
      `t: ${tileType('Vec', 'm1', 0, 64)} = pl.tile.load(`,
      '    x,',
      ')',
    ], { params: `,\n        p: ${tileType('Vec', 'm2', 64, 64)} = None` }));
    const { t, p } = boxesByName(m);
    assert.deepEqual([p.start, p.end], [8, 8]); // the default is not part of the parameter
    assert.deepEqual([t.start, t.end], [9, 11]);
  });

  // [statement, line of the statement that reads t or -1]; t is bound on
  // the first body line, the statement starts on the third.
  const cases = [
    ['y = t', 0], ['t[0] = y', 0], ['t.a = y', 0], ['y = f"{t!r:>{w}}"', 0],
    ['def g(a=t): pass', 0], ['@deco(t)\ndef g(): pass', 0], ['class C(t): pass', 0],
    ['y = lambda: t', 0], ['y = [t for _ in r]', 0], ['del t.x', 0], ['y = (u := t)', 0],
    ['with t as u: pass', 0], ['assert t', 0], ['y: pl.Scalar[t] = 0', 0],
    ['match y:\n    case t.V: pass', 1], ['y = {t: 1}', 0], ['y = x if t else z', 0],
    ['y = f"""\n{t}"""', 1], ['if y:\n    pass\nelif t:\n    pass', 2],
    ['t += 1', -1], ['t = y', -1], ['for t in r: pass', -1], ['y = [0 for t in r]', -1],
    ['with f() as t: pass', -1], ['y = (t := 1)', -1], ['del t', -1], ['global t', -1],
    ['import m as t', -1], ['from m import t', -1], ['try:\n    pass\nexcept E as t:\n    pass', -1],
    ['match y:\n    case t: pass', -1], ['def g(t): pass', -1], ['y = lambda t: 0', -1],
    ['def t(): pass', -1], ['class t: pass', -1], ['y = x.t', -1], ['f(t=1)', -1],
    ['y = "t"', -1], ["y = b't'", -1], ['y = 1  # t', -1], ['y = f"t {u}"', -1],
    ['t, u = y', -1], ['*t, u = y', -1], ['"""t\nt"""', -1],
  ];
  for (const [statement, readAt] of cases) {
    test(`${readAt >= 0 ? 'reads' : 'does not read'}: ${statement.replace(/\n/g, ' ⏎ ')}`, async () => {
      const lines = [vec('t', 'm1', 0, 64), 'pass', ...statement.split('\n')];
      const { t } = boxesByName(await model(dumpWith(lines)));
      assert.equal(t.start, bodyLine(0));
      assert.equal(t.end, readAt >= 0 ? bodyLine(2 + readAt) : bodyLine(0));
    });
  }

  // An annotated assignment that binds no tile is a binding of the name
  // all the same (upstream's count): the tile lives over it.
  const others = [
    'pl.Scalar[pl.INDEX] = 1', 'int', 'pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096), pl.Mem.DDR] = f()',
    'pl.Tile[[16, 64], pl.FP32, pl.MemRef("m9", n, 64), pl.Mem.Vec] = f()', // a MemRef offset the model cannot read
    'pl.Scalar[\n    pl.INDEX] = 1',
  ];
  for (const annotation of others) {
    test(`bound again with no tile: t: ${annotation.replace(/\n */g, ' ')}`, async () => {
      const lines = [vec('t', 'm1', 0, 64), 'pass', ...`t: ${annotation}`.split('\n'), 'y = 1'];
      const { t } = boxesByName(await model(dumpWith(lines)));
      assert.deepEqual([t.start, t.end, t.offset, t.size], [bodyLine(0), bodyLine(1 + lines.length - 3), 0, 64]);
      assert.deepEqual(t.uses, [bodyLine(0), ...[...Array(lines.length - 3).keys()].map((i) => bodyLine(2 + i))]);
    });
  }

  test('a parameter that makes no tile binds nothing: a tile of its name lives from its own binding, both readers', async () => {
    for (const generalParser of [false, true]) {
      for (const params of [', t: int', ', t: pl.Scalar[pl.INDEX]', ', *, t: pl.Tensor[[16], pl.FP32]', ', t']) {
        const { t } = boxesByName(await model(dumpWith([vec('t', 'm1', 0, 64), 'y = 1'], { params }), { generalParser }));
        assert.deepEqual([t.start, t.end], [bodyLine(0), bodyLine(0)], params);
      }
    }
  });

  // Upstream walks the bindings breadth-first and grows only a name that
  // is a tile already: a non-tile binding met first binds nothing.
  const before = [
    ['t: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)', 'a pointer'],
    ['t: pl.Scalar[pl.INDEX] = 1', 'a scalar'],
    ['t: pl.Tile[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096), pl.Mem.DDR] = f()', 'a DDR tile'],
  ];
  for (const [earlier, what] of before) {
    test(`a name bound first as ${what}, then as a tile: the tile lives from its own binding, both readers`, async () => {
      for (const generalParser of [false, true]) {
        const { t } = boxesByName(await model(dumpWith([earlier, 'y = 1', vec('t', 'm1', 0, 64), 'y = 2']), { generalParser }));
        assert.deepEqual([t.start, t.end, t.uses], [bodyLine(2), bodyLine(2), [bodyLine(2)]]);
        // Deeper but earlier in the text: met after the tile, so it counts.
        const nested = boxesByName(await model(dumpWith(['if c:', `    ${earlier}`, vec('t', 'm1', 0, 64)]), { generalParser })).t;
        assert.deepEqual([nested.start, nested.end], [bodyLine(1), bodyLine(2)]);
      }
    });
  }

  test('an integer past 2^53 in a MemRef is refused only in a tile the model keeps (not DDR, not without a space)', async () => {
    const big = '1152921504606846976';
    for (const generalParser of [false, true]) {
      for (const other of [`pl.Tile[[4], pl.FP32, pl.MemRef(m9, ${big}, 64), pl.Mem.DDR]`, `pl.Tile[[4], pl.FP32, pl.MemRef(m9, 0, ${big})]`]) {
        const m = await model(dumpWith([vec('t', 'm1', 0, 64), `d: ${other} = f()`]), { generalParser });
        assert.deepEqual(Object.keys(boxesByName(m)), ['t'], other);
      }
      await assert.rejects(model(dumpWith([`d: pl.Tile[[4], pl.FP32, pl.MemRef(m9, ${big}, 64), pl.Mem.Vec] = f()`]), { generalParser }),
        (e) => e.kind === 'limit' && e.line === 8 && /beyond 2\^53/.test(e.message));
    }
  });

  test('reads before the binding move start; reads in decorators and annotations count', async () => {
    const text = [
      'class P:',
      '    @pl.function(type=pl.FunctionType.AIV, hint=t)',
      '    def k(self, a: pl.Scalar[t]):',
      '        y = t',
      `        t: ${tileType('Vec', 'm1', 0, 64)} = f()`,
      '        return 0',
      '',
    ].join('\n');
    const { t } = boxesByName(await model(text));
    assert.deepEqual([t.start, t.end], [2, 5]);
  });

  test('a read on a later line of a multi-line statement extends to that line', async () => {
    const m = await model(dumpWith([vec('t', 'm1', 0, 64), 'y = f(', '    a,', '    t,', ')']));
    assert.equal(boxesByName(m).t.end, bodyLine(3));
  });

  test('rebinding: the shallowest first binding gives the fields, every binding the lifetime', async () => {
    const m = await model(dumpWith([
      'if c:',
      `    t: ${tileType('Vec', 'deep', 512, 64)} = pl.tile.load(x)`,
      'else:',
      `    t: ${tileType('Vec', 'deep2', 640, 64)} = pl.tile.move(x)`,
      `t: ${tileType('Vec', 'shallow', 0, 128)} = pl.tile.add(x)`,
      'pass',
    ]));
    const boxes = m.functions[0].boxes;
    assert.equal(boxes.length, 1);
    assert.deepEqual([boxes[0].base, boxes[0].offset, boxes[0].op], ['shallow', 0, 'tile.add']);
    assert.deepEqual([boxes[0].start, boxes[0].end], [bodyLine(1), bodyLine(4)]);
  });

  test('two arms of an if at the same depth: the first in source order gives the fields', async () => {
    const m = await model(dumpWith([
      'if c:',
      `    t: ${tileType('Vec', 'first', 0, 64)} = pl.tile.load(x)`,
      'elif d:',
      `    u: ${tileType('Vec', 'other', 64, 64)} = f()`,
      'else:',
      `    t: ${tileType('Vec', 'second', 128, 64)} = pl.tile.move(x)`,
    ]));
    // An elif is an If nested in the else: its body and the final else are one level deeper.
    assert.deepEqual(m.functions[0].boxes.map((b) => b.base), ['first', 'other']);
    assert.equal(boxesByName(m).t.end, bodyLine(5));
  });
});

describe('boxes: alias runs and reuse', () => {
  test('tiles of one slot whose lifetimes touch merge into one box with aliases', async () => {
    const m = await model(dumpWith([
      vec('a', 'mem', 0, 64),
      vec('b', 'mem', 0, 64, '= pl.yield_(a)'), // starts where a ends: touch
      vec('c', 'mem', 0, 64, '= pl.yield_(b)'),
      'return c',
    ]));
    const boxes = m.functions[0].boxes;
    assert.equal(boxes.length, 1);
    assert.deepEqual([boxes[0].name, boxes[0].aliases, boxes[0].start, boxes[0].end], ['a', ['b', 'c'], 8, 11]);
  });

  test('disjoint lifetimes in one slot stay apart: reuse', async () => {
    const m = await model(dumpWith([
      vec('a', 'mem', 0, 64), 'y = a', 'pass', vec('b', 'mem', 0, 64), 'z = b',
    ]));
    assert.deepEqual(m.functions[0].boxes.map((b) => [b.name, b.start, b.end, b.aliases.length]),
      [['a', 8, 9, 0], ['b', 11, 12, 0]]);
  });

  test('boxes sort by space rank, then offset, then start', async () => {
    const tile = (n, space, off) => `${n}: ${tileType(space, 'm' + n, off, 16)} = f()`;
    const m = await model(dumpWith([
      tile('w', 'Weird', 0), tile('acc', 'Acc', 0), tile('v2', 'Vec', 32), tile('rs', 'RightScale', 0),
      tile('v1', 'Vec', 0), tile('ls', 'LeftScale', 0), tile('b', 'Bias', 0), tile('mat', 'Mat', 0),
      tile('l', 'Left', 0), tile('r', 'Right', 0),
    ]));
    assert.deepEqual(m.functions[0].boxes.map((b) => b.name), ['v1', 'v2', 'mat', 'l', 'ls', 'r', 'rs', 'acc', 'b', 'w']);
    assert.deepEqual(m.functions[0].spaces.map((s) => s.space),
      ['Vec', 'Mat', 'Left', 'LeftScale', 'Right', 'RightScale', 'Acc', 'Bias', 'Weird']);
  });
});

describe('overlaps', () => {
  test('same base, overlapping bytes and lines: the narrower box is a view', async () => {
    const m = await model(dumpWith([
      vec('whole', 'mem', 0, 256), vec('part', 'mem', 64, 64, '= pl.tile.slice(whole)'), 'y = whole',
    ]));
    const { whole, part } = boxesByName(m);
    assert.deepEqual([whole.view, part.view, whole.conflict, part.conflict], [false, true, false, false]);
  });

  test('equal sizes on one base: the later box in sort order is the view', async () => {
    const m = await model(dumpWith([vec('a', 'mem', 0, 64), vec('b', 'mem', 0, 128, '= f(a)'), 'y = a']));
    // different sizes make different slots; b is wider, so a is the view
    assert.deepEqual(Object.values(boxesByName(m)).map((b) => [b.name, b.view]), [['a', true], ['b', false]]);
    const same = await model(dumpWith([
      `a: pl.Tile[[4], pl.FP32, pl.MemRef(mem, 0, 64), pl.Mem.Vec] = f()`,
      `b: pl.Tile[[8], pl.FP32, pl.MemRef(mem, 0, 64), pl.Mem.Vec, pl.Mem.Vec] = g(a)`,
    ]));
    assert.deepEqual(same.functions[0].boxes.map((b) => [b.name, b.view]), [['a', false]]); // one slot: merged
    const shifted = await model(dumpWith([vec('a', 'mem', 0, 64), vec('b', 'mem', 32, 64, '= f(a)'), 'y = a']));
    assert.deepEqual(shifted.functions[0].boxes.map((b) => [b.name, b.view]), [['a', false], ['b', true]]);
  });

  test('different bases sharing bytes while both live: both are conflicts', async () => {
    const m = await model(dumpWith([vec('a', 'mem_a', 0, 128), vec('b', 'mem_b', 64, 128, '= f(a)'), 'y = a']));
    assert.deepEqual(m.functions[0].boxes.map((b) => b.conflict), [true, true]);
  });

  test('no conflict when lifetimes are apart, bytes only touch, or the spaces differ', async () => {
    const m = await model(dumpWith([
      vec('a', 'mem_a', 0, 128), 'y = a', vec('b', 'mem_b', 0, 128), // lifetimes apart
      vec('c', 'mem_c', 128, 64, '= f(b)'),                               // adjacent bytes
      `d: ${tileType('Mat', 'mem_d', 0, 128)} = f(b, c)`,                  // another space
    ]));
    assert.ok(m.functions[0].boxes.every((b) => !b.conflict && !b.view));
  });

  test('a tile of size 0 holds no byte: no conflict with a tile spanning its offset (a departure, model.md §13)', async () => {
    // The upstream tool's overlap test counts it (offset inside the other's
    // span, lifetimes overlapping); every figure here counts bytes, and it has none.
    for (const size of ['0', '000']) {
      const m = await model(dumpWith([
        vec('a', 'mem_a', 0, 256), `b: pl.Tile[[0], pl.FP32, pl.MemRef(mem_b, pl.const(64, pl.INT64), ${size}), pl.Mem.Vec] = f(a)`, 'y = a',
      ]));
      const { a, b } = boxesByName(m);
      assert.equal(b.size, 0);
      assert.deepEqual([a.conflict, b.conflict], [false, false], size);
    }
  });

  test('views as upstream visits pairs: the narrower of a pair is the view, the later at equal sizes, a size-0 tile too', async () => {
    const views = async (lines) => boxesByName(await model(dumpWith(lines)));
    const zeroSized = await views([vec('a', 'mem', 0, 256), `b: pl.Tile[[0], pl.FP32, pl.MemRef(mem, pl.const(64, pl.INT64), 0), pl.Mem.Vec] = f(a)`, 'y = a']);
    assert.deepEqual([zeroSized.a.view, zeroSized.b.view], [false, true]);
    // b starts inside a and is wider: a is the narrower, so a is the view.
    const wider = await views([vec('a', 'mem', 0, 64), vec('b', 'mem', 32, 256, '= f(a)'), 'y = a']);
    assert.deepEqual([wider.a.view, wider.b.view], [true, false]);
    const equal = await views([vec('a', 'mem', 0, 64), vec('b', 'mem', 32, 64, '= f(a)'), 'y = a']);
    assert.deepEqual([equal.a.view, equal.b.view], [false, true]);
    // First in box order (same offset, earlier line), a zero-size a never
    // starts a pair and b starts at its end: upstream marks neither.
    const zeroFirst = await views([`a: pl.Tile[[0], pl.FP32, pl.MemRef(mem, pl.const(0, pl.INT64), 0), pl.Mem.Vec] = f()`, vec('b', 'mem', 0, 64, '= f(a)'), 'y = a']);
    assert.deepEqual([zeroFirst.a.view, zeroFirst.b.view], [false, false]);
  });
});

describe('dtype: upper case as Python\'s str.isupper() says', () => {
  test('non-ASCII names agree with CPython', async () => {
    // NFKC-stable names only: the others are refused by design (docs/model.md §13).
    const names = ['BF16', 'ÉF16', 'Éf16', 'ΣΑ', 'Σα', '℘', 'F_℘', 'ᾈ', 'A١', 'ᾼA', 'Ꭰ', 'ꭰ', 'ÀBÇ', 'ß', 'ẞ'];
    const oracle = JSON.parse(spawnSync('python3', ['-c', 'import json,sys; print(json.dumps([n.isupper() for n in json.load(sys.stdin)]))'],
      { input: JSON.stringify(names), encoding: 'utf8' }).stdout);
    for (const [i, name] of names.entries()) {
      const text = dumpWith([`a: pl.Tile[[16, 64], pl.${name}, pl.MemRef("m", pl.const(64, pl.INT64), 64), pl.Mem.Vec] = f()`, 'return a']);
      assert.equal(boxesByName(await model(text)).a.dtype, oracle[i] ? name : '', name);
    }
  });
});

describe('the space attribute: Mem.<space>, alone or after names joined by dots', () => {
  for (const [space, found] of [['pl.Mem.Vec', true], ['Mem.Vec', true], ['a.b.Mem.Vec', true], ['(pl).Mem.Vec', true],
    ['f().Mem.Vec', false], ['x[0].Mem.Vec', false], ['pl.Mem', false]]) {
    test(`${space}: ${found ? 'names the space' : 'no space, no tile'}`, async () => {
      const text = dumpWith([`a: pl.Tile[[16, 64], pl.FP32, pl.MemRef("m", pl.const(64, pl.INT64), 64), ${space}] = f()`, 'return a']);
      if (found) assert.equal(boxesByName(await model(text)).a.space, 'Vec');
      else await assert.rejects(model(text), (e) => e.kind === 'no_tiles');
    });
  }
});

describe('parameters in Python\'s order', () => {
  test('in one slot, keyword-only parameters come before *args and **kwargs: the first is the box', async () => {
    const tile = tileType('Vec', 'm1', 0, 64);
    const m = await model(dumpWith(['return q'], { params: `, *p: ${tile}, q: ${tile}, **r: ${tile}` }));
    const [box] = m.functions[0].boxes;
    assert.equal(m.functions[0].boxes.length, 1);
    assert.deepEqual([box.name, box.aliases], ['q', ['p', 'r']]);
  });
});

describe('a NUL in a string base: part of the base\'s name', () => {
  test('"m\\0x" and "m\\x00y" are two bases, each its whole text; "m\\u0000x" is the first again', async () => {
    const m = await model(dumpWith([
      'a: pl.Tile[[16, 64], pl.FP32, pl.MemRef("m\\0x", pl.const(0, pl.INT64), 64), pl.Mem.Vec] = f()',
      'b: pl.Tile[[16, 64], pl.FP32, pl.MemRef("m\\x00y", pl.const(64, pl.INT64), 64), pl.Mem.Vec] = f(a)',
      'c: pl.Tile[[16, 64], pl.FP32, pl.MemRef("m\\u0000x", pl.const(32, pl.INT64), 64), pl.Mem.Vec] = f(b)',
    ]));
    const { a, b, c } = boxesByName(m);
    assert.deepEqual([a.base, b.base, c.base], ['m\0x', 'm\0y', 'm\0x']);
    assert.equal(m.functions[0].spaces[0].bases, 2);
  });
});

describe('True and False where an integer is read: Python\'s bool is an int', () => {
  test('offset, size and shape', async () => {
    const m = await model(dumpWith([
      'x: pl.Tile[[True, 64], pl.FP32, pl.MemRef("mem_vec_1", pl.const(True, pl.INT64), 64), pl.Mem.Vec] = f()',
      'y: pl.Tile[[16, False], pl.FP32, pl.MemRef("mem_vec_2", False, 128), pl.Mem.Vec] = f()',
    ]));
    const [x, y] = m.functions[0].boxes.sort((a, b) => a.start - b.start);
    assert.deepEqual([x.offset, x.size, x.shape], [1, 64, [1, 64]]);
    assert.deepEqual([y.offset, y.size, y.shape], [0, 128, [16, 0]]);
  });
});

describe('spaces and backends', () => {
  test('hwm, limit, tiles and bases per space; limit = hwm where the backend has none', async () => {
    const m = await model(dumpWith([
      vec('a', 'm1', 0, 1024), vec('b', 'm1', 1024, 512), vec('c', 'm2', 4096, 256),
      `d: ${tileType('RightScale', 'm3', 0, 2048)} = f()`,
    ]));
    const keys = ({ space, hwm, limit, tiles, bases, over_capacity }) => ({ space, hwm, limit, tiles, bases, over_capacity });
    assert.deepEqual(m.functions[0].spaces.map(keys), [
      { space: 'Vec', hwm: 4352, limit: 188416, tiles: 3, bases: 2, over_capacity: 0 },
      { space: 'RightScale', hwm: 2048, limit: 2048, tiles: 1, bases: 1, over_capacity: 0 },
    ]);
  });

  test('an explicit backend wins, then the .pto target arch, else Ascend910B assumed', async () => {
    const text = dumpWith([`d: ${tileType('RightScale', 'm3', 0, 2048)} = f()`]);
    const pto = 'module attributes {pto.target_arch  =\t"a5"} // then pto.target_arch = "a2a3"';
    const limit = (m) => m.functions[0].spaces[0].limit;
    const explicit = await model(text, { backend: 'Ascend910B', ptoText: pto });
    assert.deepEqual([explicit.backend, limit(explicit)], [{ name: 'Ascend910B', arch: 'a2a3', detected: true }, 2048]);
    const detected = await model(text, { ptoText: pto });
    assert.deepEqual([detected.backend, limit(detected)], [{ name: 'Ascend950', arch: 'a5', detected: true }, 4096]);
    const assumed = await model(text);
    assert.deepEqual(assumed.backend, { name: 'Ascend910B', arch: 'a2a3', detected: false });
  });

  test('an unknown backend name is an error listing the known ones', async () => {
    await assert.rejects(model(dumpWith([vec('a', 'm', 0, 64)]), { backend: 'Ascend310' }),
      /unknown backend 'Ascend310'; known backends: Ascend910B, Ascend950/);
  });
});

describe('refusals', () => {
  test('no compute function with a tile: refused, pointing at AllocateMemoryAddr', async () => {
    await assert.rejects(model(dumpWith(['x = 1'])), (e) => e.kind === 'no_tiles' && /AllocateMemoryAddr/.test(e.message));
  });

  test('two bases in a space, each lowest at offset 0: refused, naming every such function', async () => {
    const before = [vec('a', 'm1', 0, 64), vec('b', 'm2', 0, 64), vec('s', 'm2', 32, 16, '= pl.tile.slice(b)')];
    const text = dumpWith(before, { name: 'first' }) +
      dumpWith(before, { name: 'second' }).split('\n').slice(4).join('\n') +
      dumpWith([vec('a', 'm1', 0, 64), `b: ${tileType('Mat', 'm2', 0, 64)} = f()`], { name: 'fine' }).split('\n').slice(4).join('\n');
    await assert.rejects(model(text), (e) => {
      assert.equal(e.kind, 'unallocated');
      assert.deepEqual(e.functions, ['first', 'second']);
      assert.match(e.message, /offset 0 in first, second.*AllocateMemoryAddr/);
      return true;
    });
  });

  test('one base per space at offset 0 is a real layout', async () => {
    const m = await model(dumpWith([vec('a', 'm1', 0, 64), `b: ${tileType('Mat', 'm2', 0, 64)} = f()`]));
    assert.equal(m.functions[0].boxes.length, 2);
  });

  test('not valid Python: a syntax error with the line where parsing stopped', async () => {
    const cases = [
      ['x = (1,\ny = 2\n', 1, /was never closed/],
      ['def f(:\n  pass\n', 1, /invalid syntax/],
      ['def f():\npass\n', 2, /expected an indented block after function definition on line 1/],
      ['x = 1\n  y = 2\n', 2, /unexpected indent/],
      ['s = """abc\n\n', 1, /unterminated triple-quoted string/],
      ['x = 1 +\n', 1, /invalid syntax/],
      ['f() = 1\n', 1, /cannot assign to function call/],
      ['if True:\n\tx = 1\n        y = 2\n', 3, /^inconsistent use of tabs and spaces in indentation$/],
      ['x = [1, 2)\n', 1, /does not match/],
    ];
    for (const [text, line, message] of cases) {
      await assert.rejects(model(text), (e) => {
        assert.equal(e.kind, 'syntax', text);
        assert.equal(e.line, line, `${JSON.stringify(text)}: ${e.message}`);
        assert.match(e.message, message);
        return true;
      });
    }
  });
});

describe('statements longer than the tokenizer\'s chunks (4,096 tokens)', () => {
  // Tokens are made on demand and dropped after each statement; a statement
  // spanning several chunks must keep all of its own.
  const many = (n) => Array.from({ length: n }, (_, i) => `v${i}`).join(', ');

  test('a read at the end of a 30,000-token statement extends the lifetime to its line', async () => {
    const m = await model(dumpWith([vec('t', 'm', 0, 64), `y = (${many(10000)},`, '  t)', 'z = 1']));
    assert.deepEqual([boxesByName(m).t.start, boxesByName(m).t.end], [bodyLine(0), bodyLine(2)]);
  });

  test('an annotated binding whose value spans chunks keeps its first line', async () => {
    const m = await model(dumpWith([vec('a', 'm1', 0, 64), `b: ${tileType('Vec', 'm2', 64, 64)} = f(a, [${many(9000)}],`, '  a)', 'return b']));
    const b = boxesByName(m).b;
    assert.deepEqual([b.start, b.end], [bodyLine(1), bodyLine(3)]);
    assert.equal(boxesByName(m).a.end, bodyLine(2));
  });

  test('a bracket left open 20,000 tokens earlier is still named with its line', async () => {
    await assert.rejects(model(`x = 1\ny = (${many(10000)}\nz = 2\nw = 3 3\n`), (e) => {
      assert.equal(e.line, 2);
      assert.match(e.message, /'\(' was never closed/);
      return true;
    });
  });
});

describe('input forms', () => {
  test('CRLF and lone CR line ends count as lines; source lines drop them', async () => {
    for (const eol of ['\r\n', '\r']) {
      const text = dumpWith([vec('a', 'm', 0, 64), 'y = (', '    a)']).split('\n').join(eol);
      const [fn] = (await model(text)).functions;
      assert.deepEqual([fn.boxes[0].start, fn.boxes[0].end, fn.src_end], [8, 10, 10]);
      assert.ok(fn.source.every((l) => !/[\r\n]/.test(l)));
    }
  });

  test('tabs, backslash continuations, semicolons and non-ASCII text', async () => {
    const text = dumpWith([
      `a: ${tileType('Vec', 'm', 0, 64)} = pl.tile.create('ünïcødé ✓')`,
      'if c:',
      '\tpass',
      'y = 1; z = \\',
      '    a',
      'ё = a  # non-ASCII names are names',
    ]);
    const { a } = boxesByName(await model(text));
    assert.deepEqual([a.start, a.end], [8, 13]);
  });

  test('pass_name drops a leading <digits>_after_ and .py', async () => {
    const text = dumpWith([vec('a', 'm', 0, 64)]);
    assert.equal((await model(text, { dumpName: '32_after_AllocateMemoryAddr.py' })).pass_name, 'AllocateMemoryAddr');
    assert.equal((await model(text, { dumpName: 'case__32_after_X.py' })).pass_name, 'case__32_after_X');
    assert.equal((await model(text, { dumpName: 'x_after_Y.py' })).pass_name, 'x_after_Y');
  });
});
