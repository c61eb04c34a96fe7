import { nodeCrypto } from './lazy-builtins.js';

/**
 * A value that is already JSON: a page of 10,000 SQLite rows that the engine process
 * serialized once, or a directory tree whose JSON is also the tool's text. It may stand as a
 * top-level value of a tool result's `structuredContent`. The stdio transport writes it
 * into the message as it is (`messageParts`), so the server does not parse 10,000 rows into
 * objects only to serialize them again (which cost more than running the query and doubled
 * what the garbage collector had to do), and the result budget counts its bytes instead of
 * walking it. Every other way out sees an ordinary value:
 * `JSON.stringify` calls `toJSON`, and a transport that hands messages over as objects
 * (in memory) is given the parsed value (`withParsedRawJson`, arranged by `connect`).
 */
export class RawJson {
  /** UTF-8 bytes of the JSON, measured once (for the result budget). */
  private measured?: number;

  /**
   * @param json JSON text, or its UTF-8 bytes, trusted to be valid (it comes from
   *   JSON.stringify in the process that made it, never from a client). Bytes go out to a
   *   stdio client without being decoded or encoded again.
   * @param head The first items of an array value, parsed: for a text rendering that shows
   *   only the beginning of a long list.
   */
  constructor(
    readonly json: string | Uint8Array,
    readonly head: readonly unknown[] = [],
  ) {}

  get bytes(): number {
    return (this.measured ??= typeof this.json === 'string' ? Buffer.byteLength(this.json, 'utf8') : this.json.byteLength);
  }

  /** The JSON as text. */
  get text(): string {
    return asText(this.json);
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

function asText(json: string | Uint8Array): string {
  return typeof json === 'string' ? json : Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8');
}

type Message = { result?: { structuredContent?: unknown } };

/** The structuredContent of a result message when any of its top-level values is RawJson. */
function withRaw(message: unknown): Record<string, unknown> | undefined {
  const structured = (message as Message | null)?.result?.structuredContent;
  if (structured === null || typeof structured !== 'object' || Array.isArray(structured)) return undefined;
  for (const key in structured) if ((structured as Record<string, unknown>)[key] instanceof RawJson) return structured as Record<string, unknown>;
  return undefined;
}

/** `message` with its structuredContent replaced (shallow copies; the original is untouched). */
function replaceStructured(message: unknown, structured: Record<string, unknown>): unknown {
  const { result } = message as Required<Message>;
  return { ...(message as object), result: { ...result, structuredContent: structured } };
}

/**
 * `JSON.stringify(message)` in parts whose concatenation is the message: the JSON of each
 * RawJson in the result's structuredContent is a part of its own, written in as it is
 * (bytes stay bytes). Each is first stood in for by a string no client can have sent (it
 * holds a UUID made here), and the output is cut where the stand-ins are. Kept apart, the
 * parts are encoded separately: a page of rows is not copied into the (often two-byte) rest.
 */
export function messageParts(message: unknown): (string | Uint8Array)[] {
  const structured = withRaw(message);
  if (!structured) return [JSON.stringify(message)];
  const marker = `raw-json:${nodeCrypto().randomUUID()}:`;
  const raws: (string | Uint8Array)[] = [];
  const standIns: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(structured)) {
    if (value instanceof RawJson) {
      standIns[key] = `${marker}${raws.length}`;
      raws.push(value.json);
    } else standIns[key] = value;
  }
  const json = JSON.stringify(replaceStructured(message, standIns));
  const parts: (string | Uint8Array)[] = [];
  let from = 0;
  for (const [i, raw] of raws.entries()) {
    const token = JSON.stringify(`${marker}${i}`);
    const at = json.indexOf(token, from);
    // Not where it was put (a message shaped otherwise): serialized whole, RawJson parsed.
    if (at === -1) return [JSON.stringify(message)];
    parts.push(json.slice(from, at), raw);
    from = at + token.length;
  }
  parts.push(json.slice(from));
  return parts;
}

/** `JSON.stringify(message)`, with the JSON of each RawJson written in as it is (see messageParts). */
export function serializeMessage(message: unknown): string {
  return messageParts(message).map(asText).join('');
}

/** `message` with every RawJson of its result parsed, for a transport that does not serialize. */
export function withParsedRawJson<T>(message: T): T {
  const structured = withRaw(message);
  if (!structured) return message;
  const parsed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(structured)) parsed[key] = value instanceof RawJson ? value.toJSON() : value;
  return replaceStructured(message, parsed) as T;
}

/**
 * Makes `transport` send results with their RawJson parsed: for every transport but the
 * stdio one (which writes the text in), such as an in-memory pair whose other end would
 * otherwise receive RawJson objects instead of values.
 */
export function parseRawJsonOnSend(transport: { send(message: never, ...rest: never[]): Promise<void> }): void {
  const send = transport.send.bind(transport) as (message: unknown, ...rest: unknown[]) => Promise<void>;
  transport.send = ((message: unknown, ...rest: unknown[]) => send(withParsedRawJson(message), ...rest)) as typeof transport.send;
}
