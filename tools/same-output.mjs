// Whether a change left the command line's output the same: builds the
// native CLI at git REF (default HEAD) in build/same-output/, then runs it
// and the current build/native/memory-map on every dump under
// tests/fixtures/ (and any paths given) with --json, --check and --summary,
// and compares stdout, stderr and the exit code byte for byte; with
// --new-key KEY (repeatable), a key the change added to the JSON is
// taken out of the new output's objects before comparing.
//   node tools/same-output.mjs [REF] [--new-key KEY]... [PATH...]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const newKeys = new Set(argv.flatMap((a, i) => (argv[i - 1] === '--new-key' ? [a] : [])));
const [ref = 'HEAD', ...extra] = argv.filter((a, i) => a !== '--new-key' && argv[i - 1] !== '--new-key');
/** `text` without the added keys, when it is JSON and keys were named. */
const withoutNewKeys = (text) => {
  if (!newKeys.size || !/^[{[]/.test(text)) return text;
  return JSON.stringify(JSON.parse(text, (key, value) => (newKeys.has(key) ? undefined : value)));
};
const sh = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30, ...opts });
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r;
};
const tree = join(root, 'build', 'same-output', 'tree');
if (existsSync(tree)) sh('git', ['-C', root, 'worktree', 'remove', '--force', tree], { allowFail: true });
rmSync(tree, { recursive: true, force: true });
sh('git', ['-C', root, 'worktree', 'add', '--detach', tree, ref]);
try {
  sh('cmake', ['-S', tree, '-B', join(tree, 'build'), '-DCMAKE_BUILD_TYPE=Release']);
  sh('cmake', ['--build', join(tree, 'build'), '-j2', '--target', 'memory-map']);
  const before = join(tree, 'build', 'memory-map');
  const after = join(root, 'build', 'native', 'memory-map');
  const files = [...extra];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.(py|bin)$/.test(e.name)) files.push(path);
    }
  };
  walk(join(root, 'tests', 'fixtures'));
  let differ = 0;
  for (const file of files) {
    for (const flags of [['--json'], ['--check'], ['--summary']]) {
      const a = sh(before, [file, ...flags], { allowFail: true });
      const b = sh(after, [file, ...flags], { allowFail: true });
      const same = b.stdout === a.stdout || (newKeys.size && withoutNewKeys(b.stdout) === withoutNewKeys(a.stdout));
      if (a.status !== b.status || !same || a.stderr !== b.stderr) {
        differ++;
        if (differ <= 10) console.log(`differs: ${file} ${flags.join(' ')}`);
      }
    }
  }
  console.log(`${files.length} dumps, 3 outputs each: ${differ ? `${differ} differ` : 'the same'} (before: ${ref})`);
  process.exitCode = differ ? 1 : 0;
} finally {
  sh('git', ['-C', root, 'worktree', 'remove', '--force', tree], { allowFail: true });
}
