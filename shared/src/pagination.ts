import { invalidParams } from './errors.js';

/**
 * Opaque cursors. A cursor names the list it belongs to, so a cursor from `tools/list`
 * handed to `resources/list` (or to another tool) is refused instead of silently
 * returning the wrong page. The position inside is either an offset (small, static
 * lists) or the key of the last item returned (streamed lists, which resume after it
 * without re-reading what came before).
 */
interface CursorBody {
  l: string;
  o?: number;
  k?: string;
  s?: number;
}

export const DEFAULT_PAGE_SIZE = 100;

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export function encodeCursor(list: string, position: Omit<CursorBody, 'l'>): string {
  return Buffer.from(JSON.stringify({ l: list, ...position }), 'utf8').toString('base64url');
}

export function decodeCursor(list: string, cursor: string): Omit<CursorBody, 'l'> {
  let body: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor(list, cursor);
  }
  if (typeof body !== 'object' || body === null || (body as CursorBody).l !== list) throw invalidCursor(list, cursor);
  const { o, k, s } = body as CursorBody;
  if (o !== undefined && (!Number.isInteger(o) || o < 0)) throw invalidCursor(list, cursor);
  if (k !== undefined && typeof k !== 'string') throw invalidCursor(list, cursor);
  if (s !== undefined && (!Number.isInteger(s) || s < 0)) throw invalidCursor(list, cursor);
  return { o, k, s };
}

function invalidCursor(list: string, cursor: string) {
  const shown = cursor.length > 40 ? `${cursor.slice(0, 40)}…` : cursor;
  return invalidParams(
    `Invalid cursor for ${list}: "${shown}". Use the nextCursor from the previous page, or omit the cursor to start over.`,
  );
}

/** Pages a list that is already in memory (tools, prompts, templates). */
export function paginateArray<T>(list: string, items: readonly T[], cursor: string | undefined, pageSize: number): Page<T> {
  const offset = cursor === undefined ? 0 : (decodeCursor(list, cursor).o ?? -1);
  if (offset < 0 || offset > items.length) throw invalidCursor(list, cursor ?? '');
  const end = offset + pageSize;
  return {
    items: items.slice(offset, end),
    nextCursor: end < items.length ? encodeCursor(list, { o: end }) : undefined,
  };
}

/**
 * Pages a stream that can resume after a key. `source(after)` yields items strictly after
 * `after` in a stable order; only one page (plus one item, to know whether more follow)
 * is ever pulled, then the stream is closed.
 */
export async function paginateStream<T>(
  list: string,
  source: (after: string | undefined) => AsyncIterable<T> | Iterable<T>,
  keyOf: (item: T) => string,
  cursor: string | undefined,
  pageSize: number,
): Promise<Page<T>> {
  const after = cursor === undefined ? undefined : decodeCursor(list, cursor).k;
  if (cursor !== undefined && after === undefined) throw invalidCursor(list, cursor);
  const items: T[] = [];
  let more = false;
  for await (const item of source(after)) {
    if (items.length === pageSize) {
      more = true;
      break; // for-await calls return() on the generator, which releases its handles
    }
    items.push(item);
  }
  const last = items[items.length - 1];
  return { items, nextCursor: more && last !== undefined ? encodeCursor(list, { k: keyOf(last) }) : undefined };
}

/**
 * The items after the one a page ended at (`key`), for a list that is read again for each
 * page (refs, tables, schema matches) and so may have changed between the calls. When no
 * item has that key any more (deleted in between), `whenGone(key)` says which items come
 * after it in the list's order, or throws when the list has no order to resume in (then
 * the client has to start over; saying so beats repeating or skipping items silently).
 */
export function itemsAfter<T>(
  items: readonly T[],
  key: string,
  keyOf: (item: T) => string,
  whenGone: (key: string) => (item: T) => boolean,
): T[] {
  const at = items.findIndex((item) => keyOf(item) === key);
  return at >= 0 ? items.slice(at + 1) : items.filter(whenGone(key));
}

/**
 * Pages several streams one after the other (for example the resources of each
 * template, then the static ones): the cursor remembers which stream and where in it.
 */
export async function paginateStreams<T>(
  list: string,
  sources: readonly ((after: string | undefined) => AsyncIterable<T> | Iterable<T>)[],
  keyOf: (item: T) => string,
  cursor: string | undefined,
  pageSize: number,
): Promise<Page<T>> {
  let index = 0;
  let after: string | undefined;
  if (cursor !== undefined) {
    const position = decodeCursor(list, cursor);
    if (position.s === undefined || position.s >= sources.length) throw invalidCursor(list, cursor);
    index = position.s;
    after = position.k;
  }
  const items: T[] = [];
  let lastSource = -1;
  for (; index < sources.length; index++, after = undefined) {
    for await (const item of sources[index](after)) {
      if (items.length === pageSize) {
        // The item just pulled belongs to stream `index`; if the page ended exactly at the
        // end of the previous stream, the next page starts at the top of this one.
        const position = lastSource === index ? { s: index, k: keyOf(items[items.length - 1]) } : { s: index };
        return { items, nextCursor: encodeCursor(list, position) };
      }
      items.push(item);
      lastSource = index;
    }
  }
  return { items };
}
