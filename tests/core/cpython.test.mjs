// Where valid Python ends, as CPython 3.11 says: each case is judged by
// CPython's own parser, ast.parse (tests/oracle/verdict.py), and read by
// the core through the fast path and the general parser alone; a dump
// CPython accepts is modelled, one it refuses is refused on its line with
// its message.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { model, root } from '../support/helpers.mjs';

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

/** As agree(), holding only the verdict and line: where the core's
 * message names the token CPython's does not. */
async function agreeOnLine(cases) {
  const expected = cpython(cases.map(([, source]) => source));
  for (const [i, [name, source]] of cases.entries()) {
    const lineOf = (v) => (v === 'ok' ? 'ok' : v.line);
    for (const [way, verdict] of ['fast path', 'general parser'].map((w, k) => [w, k])) {
      const ourVerdict = (await ours(source))[verdict];
      assert.deepEqual(lineOf(ourVerdict), lineOf(expected[i]), `${name} (${way}): ${JSON.stringify(ourVerdict)} vs ${JSON.stringify(expected[i])}`);
    }
  }
}

const blocks = (n) => [...Array(n).keys()].map((i) => `${'    '.repeat(i)}if a:`).concat(`${'    '.repeat(n)}pass`);

describe('limits, as CPython counts them', () => {
  test('200 nested parentheses are valid, 201 are not', () => agree([199, 200, 201].map((n) =>
    [`${n} parentheses`, dump(`x = ${'('.repeat(n)}a${')'.repeat(n)}`)])));

  test('indentation: the 100th level is refused ("too many levels of indentation"), on its line', () => agree([97, 98, 99].map((n) =>
    [`${n} nested blocks in a method`, dump(...blocks(n))])));

  test('long chains of unary operators CPython compiles are read', () => agree([
    ['998 minus signs', dump(`x = ${'-'.repeat(998)}1`)],
    ['999 nots', dump(`x = ${'not '.repeat(999)}a`)],
    ['998 chained powers', dump(`x = ${Array(999).fill('a').join(' ** ')}`)],
  ]));
});

describe('invalid though close to valid: refused as CPython refuses it', () => {
  test('a bare * needs a named parameter after it, in def and lambda', () => agree([
    ['def f(*)', dump('def f(*):', '    pass')],
    ['def f(*,)', dump('def f(*,):', '    pass')],
    ['def f(*, **k)', dump('def f(*, **k):', '    pass')],
    ['def f(*, b)', dump('def f(*, b):', '    pass')],
    ['lambda *: 0', dump('x = lambda *: 0')],
    ['lambda *, b: 0', dump('x = lambda *, b: 0')],
  ]));

  test('a mapping pattern\'s **rest comes last', () => agree([
    ['{**r, "k": 1}', dump('match a:', '    case {**r, "k": 1}:', '        pass')],
    ['{**r,}', dump('match a:', '    case {**r,}:', '        pass')],
    ['{"k": 1, **r, "j": 2} over lines', dump('match a:', '    case {"k": 1,', '          **r,', '          "j": 2}:', '        pass')],
  ]));

  test('bytes literals are ASCII; a byte order mark is only valid at the very start', () => agree([
    ['b"é"', dump('x = b"é"')],
    ['rb"é" over lines', dump('x = (1,', '     rb"""a', 'é""")')],
    ['b"e\\xe9"', dump('x = b"e\\xe9"')],
    ['a BOM on a later line', dump('x = 1', '\ufeffy = 2')],
    ['a BOM at the start', `\ufeff${dump('x = 1')}`],
  ]));
});

describe('the line of an error at the end of the file', () => {
  test('a final line break ends the last line; it does not start another', () => agree([
    ['an unterminated """ to the end', `${HEAD}\n        x = """abc\n        y\n`],
    ['an unterminated """ to the end, two breaks', `${HEAD}\n        x = """abc\n        y\n\n`],
    ['class Q: last', `${dump('pass')}class Q:\n`],
    ['class Q: last, then blank lines', `${dump('pass')}class Q:\n\n\n`],
    ['class Q: last, no final break', `${dump('pass')}class Q:`],
    // An empty `if` block is the printer's (docs/model.md §2a); `try:` stays an error.
    ['try: last in the method', `${HEAD}\n        if a:\n            pass\n        try:\n`],
    // The fast path reads a def's header to its line end: no line is made up after it.
    ['a method with no body, last', `${HEAD}\n        pass\n    def g(self):\n`],
    ['a method with no body, then blank lines', `${HEAD}\n        pass\n    def g(self):\n\n\n`],
    ['a method with no body, then a blank line of spaces', `${HEAD}\n        pass\n    def g(self):\n    \n`],
  ]));
});

describe('a line holding only a backslash continuation, as CPython\'s tokenizer counts it', () => {
  test('its first backslash sets the indentation; a blank line after it is no line; after CR line ends too', () => agree([
    ['before a blank line', dump('x = 1', '\\', '', 'y = 2')],
    ['before a blank line, CR line ends', dump('x = 1', '\\', '', 'y = 2').replace(/\n/g, '\r')],
    ['before a blank line, at column 1', `${dump('x = 1')} \\\n\n`],
    ['before the next statement, at its indentation', dump('x = 1', '\\', '    y = 2')],
    ['before the next statement, deeper', `${HEAD}\n        x = 1\n         \\\n        y = 2\n        return a\n`],
    ['at column 0, then the statement indented', `${HEAD}\n        x = 1\n\\\n        y = 2\n        return a\n`],
    ['two of them', `${HEAD}\n        x = 1\n        \\\n           \\\n        y = 2\n        return a\n`],
    ['at the end of the file', `${HEAD}\n        x = 1\n        \\\n`],
    ['at the end of the file, CR line ends', `${HEAD}\n        x = 1\n        \\\n`.replace(/\n/g, '\r')],
    ['a dedent after it matching no outer level', `${HEAD}\n        if a:\n            x = 1\n          \\\n        y = 2\n        return a\n`],
  ]));
});

describe('a number glued to a name, as CPython\'s tokenizer ends a number', () => {
  test('a keyword that may follow a number ends it; any other name is an invalid literal, reported over a parser error before it', () => agreeOnLine([
    ['0for: two tokens', dump('y = [0for _ in a]')],
    ['1else in an if expression', dump('y = 1if a else 2', 'z = 0 if a else 1else')],
    ['0fo: invalid', dump('y = 0fo')],
    ['0f then or on the next line', dump('y = (0f', '     or 1)')],
    ['1e then a continuation', dump('y = 1e\\', 'lse')],
    ['0x1g', dump('y = 0x1g')],
    ['0o8', dump('y = 0o8')],
    ['0b2', dump('y = 0b2')],
    ['1.5jx', dump('y = 1.5jx')],
    ['1_a', dump('y = 1_a')],
    ['1.__class__', dump('y = 1.__class__')],
    // A dict missing a colon on one line, an invalid literal far below: the literal is reported.
    ['a parser error first, an invalid literal later', dump('y = {"k" True}', 'z = 1', 'w = (0i', 'f a else 1)')],
    ['a comma forgotten, then an invalid literal in the same brackets', dump('y = f(a', '  b = 1e\\', '  lse)')],
  ]));
});

describe('\\N{...} escapes', () => {
  test('refused in a str or f-string with a clear message and line; literal in bytes and raw strings', async () => {
    for (const line of ['x = "\\N{EM DASH}"', 'x = f"{a}\\N{EM DASH}"', 'x = ("a",\n        "\\N{BULLET}")']) {
      const source = dump(line);
      const at = source.split('\n').findIndex((l) => l.includes('\\N{')) + 1;
      for (const generalParser of [false, true]) {
        await assert.rejects(model(source, { generalParser }), (error) => {
          assert.equal(error.line, at);
          assert.equal(error.message, '\\N{...} escapes are not supported (the core has no Unicode name table)');
          return true;
        });
      }
    }
    await agree([['b"\\N{x}"', dump('x = b"\\N{x}"')], ['r"\\N{x}"', dump('x = r"\\N{x}"')], ['"\\\\N{x}"', dump('x = "\\\\N{x}"')]]);
  });
});

describe('which error, and where, when there are two', () => {
  test('the rest of the file is tokenized: its tokenizer error, or a bracket never closed, is the one reported', () => agree([
    ['a stray ) after an earlier error', dump('x = = 1', 'y = 2)')],
    ['a bracket left open after an error on a later line', dump('x = (1,', 'y = = 2')],
    ['an unterminated string after an error', dump('x = = 1', 'y = "abc')],
    ['match with no block', dump('match a:', 'x = 1')],
    ['a backslash at the end of the file after an error: only marked', dump('y = $', 'z = 1 \\').replace(/\n *return a\n$/, '')],
    ['a bracket open where a marked error stops the rest', dump('z = (1,', 'y = 1 2 \\').replace(/\n *return a\n$/, '')],
  ]));

  test('a positional argument after a keyword one: reported where the arguments stop', () => agree([
    ['the last argument', dump('f(a=1, b,', '  )')],
    ['keywords after it', dump('f(a=1, b,', '  c=2,', '  d=3,', ')')],
    ['after ** unpacking', dump('f(**a, b, c', '  =2)')],
  ]));

  test('in brackets, an element then a [...] that is no index: a comma forgotten, on the element\'s line', () => agree([
    ['a list, then a list comprehension', dump('y = f(', '    [a]', '    [a for a in b]', ')')],
    ['a name, then an empty list', dump('y = f(', '    x', '    [])')],
    ['one line in a call', dump('y = f(x[a for a in b])')],
    ['a slice, then a comprehension', dump('y = (a[1:2, 3:4]', '    [b for b in c])')],
    ['on the line where the element starts', dump('y = f(1 +', '    x', '    [a for a in b])')],
    ['in a parameter\'s default', dump('def g(q=x', '        [a for a in b]):', '    pass')],
    ['a parameter\'s default, then the next parameter', dump('def g(q: int = x', '        r: int):', '    pass')],
    ['a parameter\'s annotation, then the next parameter', dump('def g(q: int', '        r: int):', '    pass')],
    ['after a starred element', dump('y = [*x', '    [a for a in b]]')],
  ]));

  test('outside brackets the [...] stays a bad index', () => agreeOnLine([
    ['after a continuation', dump('y = [a] \\', '    [b for b in c]')],
    ['a typo inside the index wins', dump('y = f(', '    x[a = 1])')],
  ]));

  test('a bad token inside brackets that do close is reported on its own line', () => agreeOnLine([
    ['y = 1 = 2 inside a call', dump('f(', '    y = 1 = 2,', ')')],
    ['a dict key missing its colon', dump('x = {', "    'a': 1,", "    'b' 2,", '}')],
  ]));
});

describe('a target that cannot be bound: CPython\'s message and line', () => {
  test('annotated and augmented targets are judged once the annotation or value is read', () => agree([
    ['a call annotated', dump('f(): int = 1')],
    ['a tuple annotated', dump('a, b: int')],
    ['a list annotated', dump('[a]: int')],
    ['a conditional annotated', dump('a if b else c: int')],
    ['a call augmented', dump('f() += 1')],
    ['True augmented', dump('True += 1')],
    ['a starred name augmented', dump('*a += 1')],
    ['an augmented call with no value', dump('f() += (', '    )')],
  ]));

  test('assignments: what CPython names, and its "Maybe you meant \'==\'" reading', () => agree([
    ['a call', dump('f() = 1')],
    ['True', dump('True = 1')],
    ['an ellipsis', dump('... = 1')],
    ['a generator', dump('(x for x in y) = 1')],
    ['a list comprehension', dump('[x for x in y] = 1')],
    ['a dict comprehension', dump('{x: 1 for x in y} = 1')],
    ['a call in a list target', dump('[a, f()] = 1')],
    ['a call as the second target', dump('x = f() = 1')],
    ['a comparison as the second target', dump('x = a < b = 1')],
    ['a literal before a valid last element', dump('1, a.b = 2')],
    ['a negated list', dump('-[1] = 2')],
    ['a sum starting with a tuple', dump('(a, b).c + 1 = 2')],
    ['a call given a yield', dump('f() = yield')],
    ['a starred call', dump('a, *f() = 1')],
    ['a starred delete', dump('del a, *b')],
    ['True deleted', dump('del True')],
    ['an if with =', dump('if x = 1:', '    pass')],
    ['an attribute = in brackets over lines', dump('y = [', '    a.b', '    =', '    1]')],
    ['a call as a := target', dump('f() := 1')],
    ['an attribute as a := target in brackets', dump('y = (a.b := 1)')],
  ]));

  test('a bad target is named once the value starts to read, as CPython\'s backtracking parser does', () => agree([
    ['an augmented call, its value an unfinished call', dump('f() += g(', '    1 +)')],
    ['an annotated call, its annotation an unfinished call', dump('f(): g(', '    1 +) = 2')],
    ['an attribute := in brackets, its value unfinished', dump('y = (a.b := g(', '    1 +))')],
    ['a parenthesized name = in brackets', dump('y = ((a) = 1)')],
    ['a keyword argument, then for clauses', dump('y = f(a, b=1', '    for c in d: pass', '    )')],
    ['an attribute of a grouped name annotated', dump('(a).b: int')],
    ['a subscript of a grouped attribute annotated', dump('(a.b)[0]: int = 1')],
    ['an attribute of a grouped call annotated (valid)', dump('(f()).b: int')],
  ]));

  test('an f-string field\'s error met while choosing a message is the one reported', () => agree([
    ['after a literal target', dump('1 = \\', '  f"{1_}"')],
    ['after an if with =', dump('if x = \\', '  f"{1_}":', '    pass')],
  ]));

  test('where the core names the token CPython does not, the line still agrees', () => agreeOnLine([
    ['an annotated call, then a starred value', dump('f(): \\', '  *a')],
    ['a [...] after a soft keyword is a bad index', dump('y = f(_', '  [a for a in b])')],
    ['a $ later in a bad index', dump('y = f(x', '  [a for a in', '   b $])')],
    ['a comma forgotten before a list that a bad index follows', dump('y = f(x', '  [a for a in b]', '  [c for c in d])')],
    ['not after a dict\'s ** operand', dump('y = {**x', '  [a for a in b]}')],
    ['in an f-string field, read as in parentheses', dump('y = f"""{x', '[a for a in b]}"""')],
    ['a call with a colon and no annotation', dump('f() :', 'x = 1')],
    ['a name := as a statement', dump('x := 1')],
    ['an attribute := among a call\'s arguments', dump('f(a.b := 1)')],
    ['a tuple = in an if', dump('if (a, b) = 1:', '    pass')],
  ]));

  test('a dict key with no \':\' is named on the key\'s first line, a \':\' with no value on its own', () => agreeOnLine([
    ['the next key on the line after', dump("x = {'a': 1,", "     'b'", '     }')],
    ['a key over two lines', dump("x = {'a': 1, f(", '1)', '}')],
    ['a name then a name', dump("x = {'a': 1,", ' x', ' y: 2}')],
    ['after a ** operand', dump('x = {**y,', ' x', ' }')],
    ['the first key, then a comprehension', dump("x = {'a': 1,", ' x', ' for x in y}')],
    ['a blank line between', dump("x = {'a': 1,", ' x', '', ' }')],
    ['a colon and no value', dump("x = {'a': 1,", ' x', ' :', ' }')],
    ['on one line', dump("x = {'a': 1, 'b' 2}")],
  ]));

  test('two expressions in brackets: a comma forgotten only when the second reads whole', () => agreeOnLine([
    ['not, then the bracket closes on the next line', dump('y = (0not', ')')],
    ['not and a name', dump('y = (a not', ' b)')],
    ['not and more', dump('y = [a', ' not b c]')],
    ['a lambda with no colon', dump('y = [a', ' lambda]')],
    ['await alone', dump('y = [a', ' await]')],
    ['a number glued to for (a warning in CPython, not an error)', dump('y = f(a', '      0for x in y)')],
    ['glued to if, on the next line', dump('y = f(a,', '      0if c else 1)')],
  ]));

  test('match statements: a header ending in \':\' is one, whatever its block holds', () => agreeOnLine([
    ['no case in the block', dump('match x:', '    pass')],
    ['an assignment in the block', dump('match x:', '    y = 1')],
    ['a case with no pattern', dump('match x:', '    case:', '        pass')],
    ['a case with only a guard', dump('match x:', '    case if c: pass')],
    ['a statement after the cases', dump('match x:', '    case 1:', '        pass', '    pass')],
    ['a parenthesized subject', dump('match (x):', '    pass')],
    ['a trailing comma in a case', dump('match x:', '    case 1,: pass')],
    ['a pattern over two lines', dump('match x:', '    case (1,', ' 2): pass', '    case 3: pass')],
    ['match as a name, then a bare match:', dump('match = 1', 'match:', '    pass')],
  ]));

  test('a character that is no token (\'$\'), then a tokenizer error later: the later one is reported', () => agree([
    ['$ then a byte order mark inside brackets', dump('x = (', '    1', ') $', 'f(', '\uFEFF    2,', ')')],
    ['$ then an unmatched )', dump('x = 1 $', 'y = 2', 'z = 3)')],
    ['$ alone', dump('x = 1 $', 'y = (1,')],
  ]));

  test('the column the page marks is where CPython points, counted in characters', async () => {
    const cases = [
      ['a bracket never closed', dump('x = f(')], ['one closed by another kind', dump('x = (1]')],
      ['a $ after a non-ASCII string', dump('y = "é" + $')], ['a ? after a non-ASCII name', dump('x = é ?')],
      ['a line ending in an operator', dump('a = 1 +')], ['a bracket never closed after é', dump('é = (1, 2')],
      ['two values', dump('x = 1 2')], ['= =', dump('y = = 1')], ['an unmatched )', dump('x = )')],
      ['a keyword argument with no value', dump('x = a.b(1, 2, c=)')], ['a non-printable character', dump('x = 1\u0007')],
    ];
    const result = spawnSync('python3', [join(root, 'tests', 'oracle', 'verdict.py'), '--offset'], { input: JSON.stringify(cases.map(([, s]) => s)), encoding: 'utf8' });
    const { verdicts } = JSON.parse(result.stdout);
    for (const [i, [name, source]] of cases.entries()) {
      // CPython reads the dump as bytes: its offset counts bytes of the line.
      const line = Buffer.from(source.split('\n')[verdicts[i].line - 1]);
      const column = Array.from(line.subarray(0, verdicts[i].offset - 1).toString('utf8')).length + 1;
      for (const generalParser of [false, true]) {
        await assert.rejects(model(source, { generalParser }), (e) => {
          assert.deepEqual([e.line, e.column], [verdicts[i].line, column], `${name}: ${e.message} vs ${verdicts[i].message}`);
          return true;
        });
      }
    }
  });
});
