// The Python package (docs/python.md): the wheels `npm run release` makes,
// installed offline into fresh venvs. `python -m memory_map` and the
// `memory-map` script write byte for byte what tools/memory-map writes, on
// real dumps; the portable wheel runs the WASI build under Node and says
// why when it cannot; show() and the MkDocs plugin refuse what they cannot
// show, with the file and line. (tests/page/python-page.test.mjs looks at
// the notebook and the site in Chromium.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { buildWheels, VERSION } from '../../tools/release.mjs';
import { cli, corpus, root } from '../support/helpers.mjs';
import { must, venvWith, wheels } from '../support/wheel.mjs';

const example = join(root, 'dist', 'site', 'examples', 'decode_fwd');
const DUMPS = {
  decode_fwd: join(example, '32_after_AllocateMemoryAddr.py'),
  conflicts: join(corpus, 'generated', 'gen1_003__36_after_AllocateMemoryAddr.py'),
  noAddresses: join(corpus, 'real', 'decode_fwd__30_after_InitMemRef.py'),
};
const CASE = join(corpus, 'cases', 'decode_fwd');

let made;
let native;
let portable;
const scratch = mkdtempSync(join(tmpdir(), 'mm-python-'));

before(() => {
  made = wheels();
  native = made.platform && venvWith(made.platform, { systemSite: true });
  portable = venvWith(made.any);
});
after(() => {
  for (const dir of [made?.dir, native?.dir, portable?.dir, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (command, args, options = {}) => spawnSync(command, args, { encoding: 'utf8', cwd: scratch, maxBuffer: 1 << 28, ...options });

/** What a command printed and wrote: its exit code, stdout, stderr, and the file at -o. */
function outcome(command, args, env = {}) {
  const out = join(scratch, `out-${Math.random().toString(36).slice(2)}`);
  const r = run(command[0], [...command.slice(1), ...args.map((a) => (a === '@OUT' ? out : a))], { env: { ...process.env, ...env } });
  let file = null;
  try {
    file = readFileSync(out, 'utf8');
  } catch {
    /* none written */
  }
  return { status: r.status, stdout: r.stdout.replaceAll(out, '@OUT'), stderr: r.stderr.replaceAll(out, '@OUT'), file };
}

const CALLS = [
  ['a dump to a page (-o)', [DUMPS.decode_fwd, '-o', '@OUT']],
  ['--json', [DUMPS.decode_fwd, '--json']],
  ['--check on a clean dump', [DUMPS.decode_fwd, '--check']],
  ['--check on one with conflicts (exit 3)', [DUMPS.conflicts, '--check']],
  ['--summary', [DUMPS.conflicts, '--summary']],
  ['the upstream tool\'s call: a case folder, -o, -p, -b', [CASE, '-o', '@OUT', '-p', 'AllocateMemoryAddr', '-b', 'Ascend950']],
  ['--svg', [DUMPS.decode_fwd, '--svg', 'k_proj', '-o', '@OUT']],
  ['--diff', ['--diff', join(CASE, 'passes_dump', '32_after_AllocateMemoryAddr.py'), DUMPS.conflicts]],
  ['a pass with no addresses: refused, exit 1, file and line', [DUMPS.noAddresses, '--json']],
  ['a flag it does not know: exit 2', [DUMPS.decode_fwd, '--no-such-flag']],
];

describe('the wheels', () => {
  test('npm run release makes this platform\'s wheel and one for any platform, each twice the same', () => {
    assert.ok(made.platform, 'a native build is here: its wheel is made');
    assert.match(made.platform, new RegExp(`/memory_map-${VERSION}-py3-none-manylinux_2_\\d+_x86_64\\.whl$`));
    assert.match(made.any, new RegExp(`/memory_map-${VERSION}-py3-none-any\\.whl$`));
    const again = mkdtempSync(join(tmpdir(), 'mm-wheels-again-'));
    try {
      for (const wheel of buildWheels(again)) {
        assert.deepEqual(readFileSync(wheel), readFileSync(join(made.dir, wheel.split('/').pop())), `${wheel} is reproducible`);
      }
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  test('each carries the page and the WASI build; the platform\'s the native one, executable', () => {
    const listing = (wheel) => must('unzip', ['-Z', '-l', wheel]).stdout;
    const platform = listing(made.platform);
    const any = listing(made.any);
    for (const file of ['memory_map/_data/dist/memory-map.html', 'memory_map/_data/build/wasi/memory-map.wasm',
      'memory_map/_data/tools/run-wasi.mjs', 'memory_map/mkdocs_plugin.py', `memory_map-${VERSION}.dist-info/entry_points.txt`]) {
      assert.match(platform, new RegExp(` ${file}\\n`));
      assert.match(any, new RegExp(` ${file}\\n`));
    }
    assert.match(platform, /^-rwxr-xr-x .* memory_map\/_data\/build\/native\/memory-map$/m);
    assert.doesNotMatch(any, /native/);
  });

  test('the platform\'s wheel runs its native build; the portable one, Node with the WASI build', () => {
    const which = (venv) => run(venv.python, ['-c', 'from memory_map._command import command; print(command(["--version"])[0][:3])']).stdout;
    assert.match(which(native), /^\['[^']*\/site-packages\/memory_map\/_data\/build\/native\/memory-map', '--version'\]$/m);
    assert.match(which(portable), /^\['[^']*node', '--no-warnings', '[^']*\/memory_map\/_data\/tools\/run-wasi\.mjs'\]$/m);
  });

  test('a native build this machine\'s glibc is too old for: Node runs the WASI build, else it says why', () => {
    const site = run(native.python, ['-c', 'import memory_map, os; print(os.path.dirname(memory_map.__file__))']).stdout.trim();
    const needs = join(site, '_data', 'build', 'native', 'GLIBC');
    const kept = readFileSync(needs, 'utf8');
    try {
      writeFileSync(needs, '9.99\n');
      const expected = outcome([cli], CALLS[1][1]);
      assert.deepEqual(outcome([native.python, '-m', 'memory_map'], CALLS[1][1]), expected);
      const r = outcome([native.python, '-m', 'memory_map'], CALLS[1][1], { PATH: dirname(native.python) });
      assert.equal(r.status, 1);
      assert.equal(r.stderr, 'error: memory-map cannot run here: its native build needs glibc 9.99 or newer, and the portable build needs Node 20 (node on PATH)\n');
    } finally {
      writeFileSync(needs, kept);
    }
  });

  test('README\'s command, pip pointed at the folder of both, installs this platform\'s', () => {
    const venv = venvWith(['--find-links', made.dir, 'memory-map']);
    try {
      const runs = run(venv.python, ['-c', 'from memory_map._command import command; print(command([])[0][0])']).stdout;
      assert.match(runs, /\/memory_map\/_data\/build\/native\/memory-map$/m);
    } finally {
      rmSync(venv.dir, { recursive: true, force: true });
    }
  });

  test('installed offline: the version, the script, the plugin\'s entry point', () => {
    const version = run(native.python, ['-c', 'import memory_map; print(memory_map.__version__)']);
    assert.equal(version.stdout.trim(), VERSION, version.stderr);
    assert.equal(run(native.bin('memory-map'), ['--version']).stdout.trim(), `memory-map ${VERSION}`);
    const plugin = run(native.python, ['-c', 'from importlib.metadata import entry_points as e; print([p.value for p in e(group="mkdocs.plugins") if p.name == "memory-map"])']);
    assert.equal(plugin.stdout.trim(), "['memory_map.mkdocs_plugin:MemoryMapPlugin']", plugin.stderr);
  });
});

describe('python -m memory_map writes what tools/memory-map writes', () => {
  for (const [what, args] of CALLS) {
    test(what, () => {
      const expected = outcome([cli], args);
      assert.deepEqual(outcome([native.python, '-m', 'memory_map'], args), expected);
      assert.deepEqual(outcome([native.bin('memory-map')], args), expected);
    });
  }

  test('the portable wheel, and MEMORY_MAP_WASI=1: the WASI build under Node, the same files', () => {
    for (const [, args] of CALLS.slice(0, 4)) {
      const expected = outcome([cli], args);
      assert.deepEqual(outcome([portable.python, '-m', 'memory_map'], args), expected);
      assert.deepEqual(outcome([native.python, '-m', 'memory_map'], args, { MEMORY_MAP_WASI: '1' }), expected);
    }
  });

  test('no native build that runs here and no Node: it says why, exit 1', () => {
    const r = outcome([portable.python, '-m', 'memory_map'], [DUMPS.decode_fwd, '--json'], { PATH: dirname(portable.python) });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'error: memory-map cannot run here: this wheel has no native build for this platform, and the portable build needs Node 20 (node on PATH)\n');
    assert.equal(r.stdout, '');
    const asked = outcome([native.python, '-m', 'memory_map'], [DUMPS.decode_fwd, '--json'], { PATH: dirname(native.python), MEMORY_MAP_WASI: '1' });
    assert.equal(asked.stderr, 'error: memory-map cannot run here: MEMORY_MAP_WASI asks for the portable build, and the portable build needs Node 20 (node on PATH)\n');
  });
});

/** Runs Python `code` in the native venv; its stdout as JSON. */
function python(code) {
  const r = run(native.python, ['-c', `import json, memory_map\n${code}`]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('memory_map.show()', () => {
  test('one function\'s map: a sandboxed srcdoc frame of the page -o writes, told the function', () => {
    const shown = python(`
m = memory_map.show(${JSON.stringify(DUMPS.decode_fwd)}, function="k_proj")
m.save("saved.html")
print(json.dumps({"html": m._repr_html_(), "framed": m._framed_page(), "functions": m.functions, "repr": repr(m)}))`);
    assert.match(shown.html, /^<iframe class="memory-map" title="Memory map of k_proj" sandbox="allow-scripts allow-downloads allow-popups" style="width: 100%; height: 560px;[^"]*" srcdoc="[^"]*"><\/iframe>$/);
    assert.doesNotMatch(shown.html, /allow-same-origin/);
    assert.match(shown.framed, /<script id="memory-map-view" type="text\/plain">\?embed#fn=k_proj<\/script>/);
    assert.match(shown.framed, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    const page = outcome([cli], [DUMPS.decode_fwd, '-o', '@OUT']).file;
    assert.equal(readFileSync(join(scratch, 'saved.html'), 'utf8'), page, 'save() writes the page -o writes');
    assert.equal(shown.framed.replace(/(id="memory-map-view" type="text\/plain">)[^<]*/, '$1'), page);
    assert.equal(shown.functions.length, 38);
    assert.equal(shown.repr, '<MemoryMap of 32_after_AllocateMemoryAddr.py: 38 functions, showing k_proj>');
  });

  test('a dump\'s text, a case folder with a pass and backend, the whole page dark', () => {
    const shown = python(`
text = open(${JSON.stringify(DUMPS.conflicts)}).read()
a = memory_map.show(text, name="gen.py")
b = memory_map.show(${JSON.stringify(CASE)}, pass_name="AllocateMemoryAddr", backend="Ascend950", theme="dark", height=900)
c = memory_map.show(${JSON.stringify(DUMPS.decode_fwd)}, function="k_proj", theme="light")
view = lambda m: m._framed_page().split('<script id="memory-map-view" type="text/plain">')[1].split('</script>')[0]
print(json.dumps({"a": [a.model["dump"], len(a.functions)], "b": [b.model["dump"], b.model["backend"]["name"], view(b), 'height: 900px' in b._repr_html_()], "c": view(c)}))`);
    assert.deepEqual(shown.a[0], 'gen.py');
    assert.ok(shown.a[1] > 0);
    assert.deepEqual(shown.b, ['32_after_AllocateMemoryAddr.py', 'Ascend950', '?theme=dark', true]);
    assert.equal(shown.c, '?embed&theme=light#fn=k_proj', 'the view as the page reads it: no entities in a script element');
  });

  test('what it cannot show raises MemoryMapError saying what and where', () => {
    const refused = python(`
out = []
for call in (lambda: memory_map.show(${JSON.stringify(DUMPS.noAddresses)}),
             lambda: memory_map.show("def f(:\\n    pass\\n", name="broken.py"),
             lambda: memory_map.show(b"\\xff\\xfe\\n", name="bytes.py"),
             lambda: memory_map.show("no/such/dump.py"),
             lambda: memory_map.show(${JSON.stringify(DUMPS.decode_fwd)}, function="k_prj"),
             lambda: memory_map.show(${JSON.stringify(DUMPS.decode_fwd)}, height="400"),
             lambda: memory_map.show(${JSON.stringify(DUMPS.decode_fwd)}, theme="purple")):
    try:
        call()
        out.append(None)
    except (memory_map.MemoryMapError, ValueError) as error:
        out.append(type(error).__name__ + ": " + str(error))
print(json.dumps(out))`);
    const expected = outcome([cli], [DUMPS.noAddresses, '--json']).stderr.trim().replace(/^error: /, '');
    assert.equal(refused[0], `MemoryMapError: ${expected}`);
    assert.equal(refused[1], "MemoryMapError: broken.py:1: invalid syntax: expected a parameter name at ':'");
    assert.match(refused[2], /^MemoryMapError: bytes\.py:1: /);
    assert.equal(refused[3], 'MemoryMapError: no/such/dump.py: No such file or directory');
    assert.match(refused[4], /^MemoryMapError: 32_after_AllocateMemoryAddr\.py has no function k_prj; it has copy_hidden, copy_out, .*k_proj/);
    assert.equal(refused[5], "ValueError: height is a number of pixels, not '400'");
    assert.equal(refused[6], "ValueError: theme is light, dark or None (the system's), not 'purple'");
  });

  test('an output a Jupyter server would drop at its default rate limit is warned of', () => {
    const warned = python(`
import warnings, memory_map.notebook
memory_map.notebook.JUPYTER_OUTPUT_LIMIT = 1000
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    memory_map.show(${JSON.stringify(DUMPS.decode_fwd)}, function="k_proj")
print(json.dumps([str(w.message) for w in caught]))`);
    assert.equal(warned.length, 1);
    assert.match(warned[0], /^this map's output is 1\.\d MB: a Jupyter server drops an output over about 3 MB .*iopub_data_rate_limit=1e10/);
  });
});

/** Builds tests/python/site/ (dumps in docs/dumps/) with `page` added as
 * docs/extra.md: mkdocs's result. */
function buildSite(page) {
  const work = mkdtempSync(join(scratch, 'site-'));
  cpSync(join(root, 'tests', 'python', 'site'), work, { recursive: true });
  cpSync(example, join(work, 'docs', 'dumps'), { recursive: true });
  if (page) writeFileSync(join(work, 'docs', 'extra.md'), page);
  return { work, result: run(native.python, ['-m', 'mkdocs', 'build', '--strict'], { cwd: work }) };
}

describe('the MkDocs plugin', () => {
  test('a block becomes a frame of its dump\'s page, written once per dump into assets/memory-map/', () => {
    const { work, result } = buildSite(null);
    assert.equal(result.status, 0, result.stderr);
    const assets = join(work, 'site', 'assets', 'memory-map');
    const kernels = readFileSync(join(work, 'site', 'kernels', 'decode_fwd', 'index.html'), 'utf8');
    const frames = [...kernels.matchAll(/<iframe class="memory-map" title="([^"]+)" src="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    assert.equal(frames.length, 2);
    assert.deepEqual(frames.map(([title]) => title), ['Memory map of k_proj', 'Memory map of down_proj']);
    const [file] = frames[0][1].match(/[^/]+\.html/);
    for (const [, src] of frames) assert.match(src, new RegExp(`^\\.\\./\\.\\./assets/memory-map/${file}\\?embed#fn=\\w+$`));
    assert.equal(readFileSync(join(assets, file), 'utf8'), outcome([cli], [DUMPS.decode_fwd, '-o', '@OUT']).file);
    assert.match(kernels, /<script src="\.\.\/\.\.\/assets\/memory-map\/memory-map-theme\.js"><\/script>\n<\/body>/);
    const index = readFileSync(join(work, 'site', 'index.html'), 'utf8');
    assert.deepEqual([...index.matchAll(/<iframe class="memory-map" title="([^"]+)" src="([^"]+)" style="width: 100%; height: (\d+)px;/g)].map((m) => m.slice(1)), [
      ['Memory map of 32_after_AllocateMemoryAddr.py', `assets/memory-map/${file}`, '640'],
      ['Memory map of copy_out', `assets/memory-map/${file}?embed#fn=copy_out`, '560'], // a ~~~ fence
      ['Memory map of k_proj', `assets/memory-map/${file}?embed#fn=k_proj`, '300'], // after a line beginning with inline code
    ]);
    assert.match(index, /<code>```memory-map\ndumps\/32_after_AllocateMemoryAddr.py\nfunction: k_proj\n```\n<\/code>/, 'the example inside a fence is left as it is');
    assert.match(index, /<pre><code>```memory-map\ndumps\/no-such-dump.py\n```\n<\/code><\/pre>/, 'and the one in an indented code block');
    // Markdown decides what is a fence (superfences): a map in a lazily
    // wrapped list item, a numbered one, a footnote, a definition, a tab,
    // a block quote; the examples indented as code stay code.
    const shapes = readFileSync(join(work, 'site', 'shapes', 'index.html'), 'utf8');
    assert.deepEqual([...shapes.matchAll(/<iframe class="memory-map" title="Memory map of (\w+)"/g)].map((m) => m[1]),
      ['copy_hidden', 'copy_out', 'down_proj', 'down_seed', 'k_proj', 'dcr_xgamma']); // the footnote's comes last
    assert.equal([...shapes.matchAll(/<code>```memory-map\ndumps\/no-such-dump.py\n```\n<\/code>/g)].length, 2);
    // The palette script is on every page, for Material's instant navigation.
    assert.match(readFileSync(join(work, 'site', 'about', 'index.html'), 'utf8'), /<script src="\.\.\/assets\/memory-map\/memory-map-theme\.js"><\/script>\n<\/body>/);
    assert.ok(statSync(join(assets, 'memory-map-theme.js')).size > 0);
  });

  for (const [what, block, message] of [
    ['no such dump', 'dumps/nope.py', 'extra.md:3: memory-map: dumps/nope.py: No such file or directory (looked beside the page, in docs_dir and beside mkdocs.yml)'],
    ['no such function', 'dumps/32_after_AllocateMemoryAddr.py\nfunction: k_prj', 'extra.md:3: memory-map: 32_after_AllocateMemoryAddr.py has no function k_prj; it has copy_hidden'],
    ['an unknown option', 'dumps/32_after_AllocateMemoryAddr.py\nfunktion: k_proj', "extra.md:3: memory-map: 'funktion: k_proj' is neither the dump's path nor an option (function, pass, backend, height)"],
    ['a pass the case does not have', `${CASE}\npass: Nope`, `extra.md:3: memory-map: no '*_after_Nope.py' dump under ${CASE}`],
    ['a height that is not a number', 'dumps/32_after_AllocateMemoryAddr.py\nheight: tall', "extra.md:3: memory-map: height is a number of pixels, not 'tall'"],
    ['a height of 0', 'dumps/32_after_AllocateMemoryAddr.py\nheight: 0', "extra.md:3: memory-map: height is a number of pixels, not '0'"],
  ]) {
    test(`a block it cannot show stops the build with its file and line: ${what}`, () => {
      const { result } = buildSite(`# Extra\n\n\`\`\`memory-map\n${block}\n\`\`\`\n`);
      assert.notEqual(result.status, 0);
      assert.ok(result.stderr.includes(message), result.stderr);
    });
  }

  test('without superfences, its own scanner: fences, lists, admonitions, tabs; code and inline code left', () => {
    const cases = {
      top: '```memory-map\nd.py\n```\n',
      tilde: '~~~memory-map\nd.py\n~~~\n',
      crlf: '```memory-map\r\nd.py\r\n```\r\n',
      admonition: '!!! note\n\n    ```memory-map\n    d.py\n    ```\n',
      'list item': '- item\n  more\n\n    ```memory-map\n    d.py\n    ```\n',
      tab: '=== "Tab"\n\n    ```memory-map\n    d.py\n    ```\n',
      'after inline code': '```text``` and x\n\n```memory-map\nd.py\n```\n',
      'indented code': 'Example:\n\n    ```memory-map\n    d.py\n    ```\n',
      'in a fence': '````md\n```memory-map\nd.py\n```\n````\n',
    };
    const found = python(`
from memory_map.mkdocs_plugin import Block, blocks_of
cases = json.loads(${JSON.stringify(JSON.stringify(cases))})
print(json.dumps({k: [b.where for b in blocks_of(md, "x.md") if isinstance(b, Block)] for k, md in cases.items()}))`);
    assert.deepEqual(found, {
      top: ['x.md:1'], tilde: ['x.md:1'], crlf: ['x.md:1'], admonition: ['x.md:3'], 'list item': ['x.md:4'], tab: ['x.md:3'],
      'after inline code': ['x.md:3'], 'indented code': [], 'in a fence': [],
    });
  });

  test('a block left open stops the build', () => {
    const { result } = buildSite('# Extra\n\n```memory-map\ndumps/32_after_AllocateMemoryAddr.py\n');
    assert.notEqual(result.status, 0);
    assert.ok(result.stderr.includes('extra.md:3: memory-map: the block is not closed'), result.stderr);
  });
});
