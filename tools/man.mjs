// memory-map(1), written from docs/cli.md: the Markdown the project keeps
// turned into man(7) roff, so the manual page never drifts from the doc.
//
//   node tools/man.mjs > memory-map.1
//
// The Markdown it reads is the subset docs/cli.md uses: headings, paragraphs,
// fenced code, tables, lists (nested by indent), `code`, **bold** and links.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Text as roff reads it: backslashes and hyphens escaped, and every
 * character past ASCII named (\[u2014]), so no reader needs preconv. */
function escape(text) {
  return text.replace(/\\/g, '\\e').replace(/-/g, '\\-')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
}

const plain = (roff) => roff.replace(/\\f[BRI]/g, '');

const lineStart = (text) => text.replace(/^([.'])/, '\\&$1');

/** Inline Markdown to roff fonts: `code` and **bold** bold, links their text. */
export function inline(text) {
  const parts = [];
  const pattern = /``(.+?)``|`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\([^)]+\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    parts.push(escape(text.slice(last, m.index)));
    if (m[1] !== undefined || m[2] !== undefined) parts.push(`\\fB${escape((m[1] ?? m[2]).trim())}\\fR`);
    else if (m[3] !== undefined) parts.push(`\\fB${inline(m[3]).replace(/\\f[BR]/g, '')}\\fR`);
    else parts.push(escape(m[4]));
    last = m.index + m[0].length;
  }
  parts.push(escape(text.slice(last)));
  return parts.join('');
}

const cells = (row) => row.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));

/** The roff of a Markdown document; `title` for .TH. */
export function toMan(markdown, { name, section, date, version }) {
  const out = [`.TH ${name.toUpperCase()} ${section} "${date}" "memory-map ${version}" "User Commands"`];
  const lines = markdown.split('\n');
  let paragraph = [];
  let opening = 'synopsis'; // before the first ##: the usage, then the description
  const flush = () => {
    if (paragraph.length) {
      if (opening === 'description') out.push('.SH DESCRIPTION');
      if (opening !== 'synopsis') opening = 'done';
      out.push('.PP', lineStart(inline(paragraph.join(' '))));
    }
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('```')) {
      flush();
      if (opening === 'synopsis') {
        out.push('.SH SYNOPSIS');
        opening = 'description';
      }
      out.push('.PP', '.nf', '.RS 4');
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) out.push(lineStart(escape(lines[i])));
      out.push('.RE', '.fi');
    } else if (/^#\s/.test(line)) {
      flush();
      out.push('.SH NAME', `${name} \\- ${escape(line.slice(2).trim().toLowerCase())} of memory-map, a map of the on-chip memory PyPTO laid out`);
    } else if (/^##\s/.test(line)) {
      flush();
      opening = 'done';
      out.push(`.SH ${plain(inline(line.replace(/^##\s+/, ''))).toUpperCase()}`);
    } else if (/^###\s/.test(line)) {
      flush();
      out.push(`.SS ${plain(inline(line.replace(/^###\s+/, '')))}`);
    } else if (line.startsWith('|')) {
      flush();
      const head = cells(line);
      i++; // the --- row
      for (; i + 1 < lines.length && lines[i + 1].startsWith('|'); i++) {
        const row = cells(lines[i + 1]);
        out.push('.TP', lineStart(inline(row[0])), lineStart(inline(row.slice(1).map((c, k) => (head.length > 2 && k > 0 ? `${head[k + 1]}: ${c}` : c)).join('; '))));
      }
    } else if (/^\s*(-|\d+\.)\s/.test(line)) {
      flush();
      const depth = line.match(/^\s*/)[0].length >= 2 ? 1 : 0;
      let text = line.replace(/^\s*(-|\d+\.)\s+/, '');
      while (i + 1 < lines.length && /^\s+\S/.test(lines[i + 1]) && !/^\s*(-|\d+\.)\s/.test(lines[i + 1])) text += ` ${lines[++i].trim()}`;
      if (depth) out.push('.RS 4');
      out.push(`.IP \\(bu 2`, lineStart(inline(text)));
      if (depth) out.push('.RE');
    } else if (!line.trim()) {
      flush();
    } else if (line.startsWith('![')) {
      flush(); // pictures have no place in a terminal
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  out.push('.SH SEE ALSO', 'The model and its JSON: docs/model.md; the page: docs/page.md (in the source, and in /usr/share/doc/memory-map where packaged).');
  return `${out.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const date = process.env.SOURCE_DATE_EPOCH ? new Date(Number(process.env.SOURCE_DATE_EPOCH) * 1000) : new Date();
  process.stdout.write(toMan(readFileSync(join(root, 'docs', 'cli.md'), 'utf8'),
    { name: 'memory-map', section: 1, date: date.toISOString().slice(0, 10), version }));
}
