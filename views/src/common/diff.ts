// Unified diffs for the git views: split into hunks, rendered unified or side by side,
// each line highlighted by the file's extension. Text only ever goes in as text nodes.
import { h } from './dom.js';
import { highlightLines, languageOf } from './highlight.js';

export interface Hunk {
  file: string;
  header: string;
  lines: string[];
}

/** Every hunk of a unified diff, with the file it belongs to. */
export function splitHunks(text: string): Hunk[] {
  const hunks: Hunk[] = [];
  let file = '';
  let current: Hunk | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
      const m = /^diff --git ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(line);
      file = (m ? m[2] : line.slice(11)).replace(/^"|"$/g, '').replace(/^b\//, '');
    } else if (line.startsWith('@@')) {
      current = { file, header: line, lines: [] };
      hunks.push(current);
    } else if (current && /^[ +\-\\]/.test(line)) {
      current.lines.push(line);
    }
  }
  return hunks;
}

function code(text: string, family: string | undefined): HTMLElement {
  const [line] = highlightLines(text, family);
  return line;
}

function starts(header: string): [number, number] {
  const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(header);
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

export function renderHunks(hunks: readonly Hunk[], mode: 'unified' | 'split'): HTMLElement {
  const table = h('table', { class: `diff ${mode}` });
  let lastFile: string | undefined;
  for (const hunk of hunks) {
    const family = languageOf(hunk.file);
    const span = mode === 'unified' ? 3 : 4;
    if (hunk.file !== lastFile) table.append(h('tr', { class: 'file' }, h('td', { colspan: span }, hunk.file)));
    lastFile = hunk.file;
    table.append(h('tr', { class: 'hunk' }, h('td', { colspan: span }, hunk.header)));
    let [oldNo, newNo] = starts(hunk.header);
    if (mode === 'unified') {
      for (const line of hunk.lines) {
        const sign = line[0];
        const body = line.slice(1);
        if (sign === '\\') {
          table.append(h('tr', { class: 'note' }, h('td', { colspan: 3 }, line)));
          continue;
        }
        const cls = sign === '+' ? 'add' : sign === '-' ? 'del' : 'ctx';
        const oldCell = sign === '+' ? '' : String(oldNo++);
        const newCell = sign === '-' ? '' : String(newNo++);
        table.append(h('tr', { class: cls }, h('td', { class: 'no' }, oldCell), h('td', { class: 'no' }, newCell), h('td', { class: 'src' }, h('span', { class: 'sign' }, sign), code(body, family))));
      }
      continue;
    }
    // Split: a run of deletions beside the run of additions that follows it.
    let i = 0;
    const lines = hunk.lines.filter((line) => !line.startsWith('\\'));
    while (i < lines.length) {
      if (lines[i][0] === ' ') {
        const body = lines[i].slice(1);
        table.append(h('tr', { class: 'ctx' }, h('td', { class: 'no' }, String(oldNo++)), h('td', { class: 'src' }, code(body, family)), h('td', { class: 'no' }, String(newNo++)), h('td', { class: 'src' }, code(body, family))));
        i++;
        continue;
      }
      const dels: string[] = [];
      const adds: string[] = [];
      while (i < lines.length && lines[i][0] === '-') dels.push(lines[i++].slice(1));
      while (i < lines.length && lines[i][0] === '+') adds.push(lines[i++].slice(1));
      for (let row = 0; row < Math.max(dels.length, adds.length); row++) {
        const del = dels[row];
        const add = adds[row];
        table.append(
          h(
            'tr',
            {},
            h('td', { class: 'no' }, del === undefined ? '' : String(oldNo++)),
            h('td', { class: del === undefined ? 'src empty' : 'src del' }, del === undefined ? '' : code(del, family)),
            h('td', { class: 'no' }, add === undefined ? '' : String(newNo++)),
            h('td', { class: add === undefined ? 'src empty' : 'src add' }, add === undefined ? '' : code(add, family)),
          ),
        );
      }
    }
  }
  return table;
}
