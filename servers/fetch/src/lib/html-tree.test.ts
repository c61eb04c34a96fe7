// The parsed tree's shape, recorded while parsing, is what a walk over the tree finds, and
// restoring it undoes what an extraction attempt does to the tree.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../corpus/quality.js';
import { append, detach, element, parseHtml, restore, snapshot, textContent, type HNode, type TreeSnapshot } from './html-tree.js';

const corpusDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-corpus');
const pages = readdirSync(corpusDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => loadCorpus(path.join(corpusDir, entry.name)));

const plain = (shape: TreeSnapshot) => ({ nodes: shape.nodes, parents: Array.from(shape.parents), tags: shape.tags });

/** Every node's tag, text and children, as nested arrays. */
function dump(node: HNode): unknown {
  const children: unknown[] = [];
  for (let child = node.first; child; child = child.next) {
    expect(child.parent).toBe(node);
    expect(child.next?.prev ?? child).toBe(child);
    children.push(dump(child));
  }
  expect(node.last?.next ?? null).toBeNull();
  return [node.tag, node.data, children];
}

describe('parseHtml records the shape of the tree', () => {
  it('as a walk over it finds it, on every corpus page', () => {
    for (const page of pages) {
      const parsed = parseHtml(page.source);
      expect(parsed.shape, page.name).toBeDefined();
      expect(plain(parsed.shape!), page.name).toEqual(plain(snapshot(parsed.root)));
    }
  });

  it('not when it had to add a <body> (the nodes moved): the extractor then walks the tree', () => {
    expect(parseHtml('<p>No body here.</p><p>Two.</p>').shape).toBeUndefined();
  });

  it('and the <h1> and <h2> elements in document order', () => {
    const parsed = parseHtml('<html><body><h2>A</h2><div><h1>B</h1><h3>x</h3></div><h2 hidden>gone</h2><h2>C</h2></body></html>');
    expect(parsed.headings.map(textContent)).toEqual(['A', 'B', 'C']);
  });
});

describe('restore', () => {
  it('puts back every node, tag and link that changed, and drops the nodes made since', () => {
    const parsed = parseHtml('<html><body><div id="a"><p>one</p><p>two</p></div><ul><li>three</li></ul></body></html>');
    const before = dump(parsed.root);
    const div = parsed.body.first!;
    const wrapper = element('section');
    append(parsed.body, wrapper);
    append(wrapper, div.first!);
    detach(parsed.body.first!.next!);
    div.tag = 'p';
    div.score = 12;
    div.len = 3;
    restore(parsed.shape!);
    expect(dump(parsed.root)).toEqual(before);
    expect(div.score).toBeUndefined();
    expect(div.len).toBeUndefined();
  });
});
