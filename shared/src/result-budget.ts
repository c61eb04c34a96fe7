import { codePointBoundary } from './character-boundary.js';
import { RawJson } from './raw-json.js';
import type { ToolResult } from './types.js';

/** Safely below the SDK client's 10 MiB message limit, with room for the envelope. */
export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024;

/** The text kept of a rendering that would push a result over the budget. */
const TEXT_PREVIEW_CHARS = 16 * 1024;

/** What a string and a number add to the size of a JSON text: exactly, or at most. */
interface JsonCosts {
  string(text: string): number;
  number(n: number): number;
}

const EXACT: JsonCosts = {
  string: stringBytes,
  number: (n) => (Number.isSafeInteger(n) ? integerBytes(n) : Number.isFinite(n) ? String(n).length : 4),
};

/**
 * At most: a string of n UTF-16 units is at most 6n + 2 bytes (an escape such as \u0001
 * is the worst case); a long one is bounded by 3 bytes a unit (a UTF-8 character of the
 * BMP; an escape such as \" or \n is 2) unless it holds a character that escapes to 6 or a
 * surrogate, then measured. A number is at most 25 characters (-0.0000035367576877369353).
 */
const BOUND: JsonCosts = {
  string: (text) => (text.length <= LONG_STRING ? 6 * text.length + 2 : SIX_BYTE_ESCAPES.test(text) ? stringBytes(text) : 3 * text.length + 2),
  number: () => 25,
};

/**
 * The size of the JSON text of `value` in UTF-8 bytes as `costs` counts strings and
 * numbers, by walking the value as JSON.stringify would, without serializing it; it
 * stops early (with a figure above `stopAbove`) once past `stopAbove`.
 */
function measureJson(value: unknown, stopAbove: number, costs: JsonCosts): number {
  let total = 0;
  const visit = (item: unknown): void => {
    if (total > stopAbove) return;
    switch (typeof item) {
      case 'string':
        total += costs.string(item);
        return;
      case 'number':
        total += costs.number(item);
        return;
      case 'boolean':
        total += item ? 4 : 5;
        return;
      case 'bigint':
      case 'undefined':
      case 'function':
      case 'symbol':
        total += 4;
        return;
    }
    if (item === null) {
      total += 4;
      return;
    }
    // Text written into the message as it is (raw-json.ts): its length, not a parse.
    if (item instanceof RawJson) {
      total += item.bytes;
      return;
    }
    const withJson = item as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return visit(withJson.toJSON());
    if (Array.isArray(item)) {
      total += 2 + Math.max(0, item.length - 1);
      for (const element of item) {
        visit(element);
        if (total > stopAbove) return;
      }
      return;
    }
    total += 2;
    let first = true;
    for (const key in item as Record<string, unknown>) {
      if (!Object.prototype.hasOwnProperty.call(item, key)) continue;
      const member = (item as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      total += costs.string(key) + 1 + (first ? 0 : 1);
      first = false;
      visit(member);
      if (total > stopAbove) return;
    }
  };
  visit(value);
  return total;
}

/**
 * The size of `JSON.stringify(value)` in UTF-8 bytes, computed by walking the value
 * instead of serializing it (the transport serializes once, later). Escapes are
 * counted, so the figure is exact for plain data; it stops early once past `stopAbove`.
 */
export function jsonBytes(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  return measureJson(value, stopAbove, EXACT);
}

/**
 * True when `JSON.stringify(value)` is certainly at most `maxBytes` UTF-8 bytes, from the
 * same walk with an upper bound that reads no short string's characters and formats no
 * number (BOUND). False means "not certain": measure exactly with `jsonBytes`. Large
 * answers of many small values (rows of a query) are cleared in a fraction of the exact
 * walk, which costs about what serializing does.
 */
export function fitsWithin(value: unknown, maxBytes: number): boolean {
  return measureJson(value, maxBytes, BOUND) <= maxBytes;
}

/**
 * How an answer over `maxBytes` reads in a message ("9.5 MB", or "more than 32.0 MB"
 * when the walk stopped at four times the budget), or undefined when it fits.
 */
export function oversize(value: unknown, maxBytes: number): string | undefined {
  if (fitsWithin(value, maxBytes)) return undefined;
  const size = jsonBytes(value, maxBytes * 4);
  if (size <= maxBytes) return undefined;
  return size > maxBytes * 4 ? `more than ${describeBytes(maxBytes * 4)}` : describeBytes(size);
}

/** Strings up to this length are bounded by 6 bytes a unit; longer ones more closely. */
const LONG_STRING = 256;

/** Characters JSON writes as \u00XX, and surrogates (a lone one is written \udXXX). */
const SIX_BYTE_ESCAPES = /[\u0000-\u0007\u000b\u000e-\u001f\ud800-\udfff]/;

/** Characters of a safe integer in JSON, without building its string (rows of numbers are common). */
function integerBytes(n: number): number {
  let digits = n < 0 ? 2 : 1;
  for (let rest = Math.abs(n); rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

/** What JSON.stringify escapes or V8's UTF-8 length counts differently, but the newline. */
const UNUSUAL = /["\\\u0000-\u0009\u000b-\u001f\ud800-\udfff]/;

/** Bytes of a JSON string literal: UTF-8 length, quotes and escapes. */
function stringBytes(text: string): number {
  // A long text (a file, a rendered table) has only newlines to escape, as a rule: the
  // engine's own UTF-8 count and a count of newlines are several times faster than the loop.
  if (text.length > LONG_STRING && !UNUSUAL.test(text)) {
    let newlines = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++;
    return Buffer.byteLength(text, 'utf8') + 2 + newlines;
  }
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code >= 0x20) bytes += code === 0x22 || code === 0x5c ? 2 : 1;
      else bytes += code === 0x0a || code === 0x0d || code === 0x09 || code === 0x08 || code === 0x0c ? 2 : 6;
    } else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair: one 4-byte character
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) bytes += 6; // a lone surrogate: JSON.stringify writes \udXXX
    else bytes += 3;
  }
  return bytes;
}

/** "8.0 MB", "64 KB": how a budget or a size reads in a message. */
export function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Holds a tool result to the budget. Under it, the result is returned as it is (no
 * serialization: see `oversize`). Over it, a result with structuredContent first
 * loses its long text rendering (the data stays, in structuredContent); if it is still
 * too large, it becomes an isError result that says how to ask for less.
 */
export function fitResult(result: ToolResult, maxBytes: number, tool: string, whenTooLarge?: string): ToolResult {
  const shown = oversize(result, maxBytes);
  if (shown === undefined) return result;
  const [first, ...rest] = result.content;
  if (result.structuredContent && !result.isError && first?.type === 'text' && first.text.length > TEXT_PREVIEW_CHARS) {
    const shortened: ToolResult = {
      ...result,
      content: [
        {
          ...first,
          text:
            `${first.text.slice(0, TEXT_PREVIEW_CHARS)}\n… [the text is cut here to keep the response under ${describeBytes(maxBytes)}; ` +
            `the whole result is in structuredContent]`,
        },
        ...rest,
      ],
    };
    if (oversize(shortened, maxBytes) === undefined) return shortened;
  }
  return {
    content: [
      {
        type: 'text',
        text:
          `The result of ${tool} is ${shown}, over the ${describeBytes(maxBytes)} a response may carry. Ask for less: ` +
          (whenTooLarge ?? 'use the paging arguments (pass a cursor or a smaller limit), read part of the data, or narrow the path or query.'),
      },
    ],
    isError: true,
  };
}

/**
 * JSON, pretty-printed, but at most about `maxChars` long: a large value is cut with a
 * note pointing to structuredContent, without serializing all of it first.
 */
export function boundedJson(value: unknown, maxChars: number): string {
  if (jsonBytes(value, maxChars) * 2 <= maxChars) return JSON.stringify(value, null, 2) ?? 'null';
  const parts: string[] = [];
  let length = 0;
  const push = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  const full = () => length >= maxChars;
  const write = (item: unknown, indent: string): void => {
    if (full()) return;
    if (item === null || typeof item !== 'object') {
      const text = JSON.stringify(typeof item === 'string' && item.length > maxChars ? `${item.slice(0, codePointBoundary(item, maxChars))}…` : item) ?? 'null';
      push(text);
      return;
    }
    const inner = `${indent}  `;
    if (Array.isArray(item)) {
      push('[');
      item.forEach((element, i) => {
        if (full()) return;
        push(`${i ? ',' : ''}\n${inner}`);
        write(element, inner);
      });
      if (!full()) push(item.length ? `\n${indent}]` : ']');
      return;
    }
    const entries = Object.entries(item as Record<string, unknown>).filter(([, v]) => v !== undefined);
    push('{');
    entries.forEach(([key, member], i) => {
      if (full()) return;
      push(`${i ? ',' : ''}\n${inner}${JSON.stringify(key)}: `);
      write(member, inner);
    });
    if (!full()) push(entries.length ? `\n${indent}}` : '}');
  };
  write(value, '');
  const text = parts.join('');
  const end = codePointBoundary(text, maxChars);
  return `${text.slice(0, end)}\n… [cut at ${end} characters; the whole result is in structuredContent]`;
}
