// Cutting text without splitting a character: a cut answer must decode, and the offset it
// names to read on from must start a character. Bytes of UTF-8 (files, git output) and
// units of UTF-16 (JavaScript strings: a character above U+FFFF is a surrogate pair).

/** Bytes of the UTF-8 character whose first byte is `lead` (1 for anything that is not a lead byte). */
export function characterLength(lead: number): number {
  return lead >= 0xf0 && lead <= 0xf7 ? 4 : lead >= 0xe0 ? (lead <= 0xef ? 3 : 1) : lead >= 0xc0 ? 2 : 1;
}

/**
 * The largest offset <= `limit` that does not split a UTF-8 character of `bytes`. When
 * `bytes` ends at `limit`, the byte after the cut is unknown and `limit` is returned: pass
 * bytes that go past the cut when there are any.
 */
export function characterBoundary(bytes: Uint8Array, limit: number): number {
  // Back over at most 3 continuation bytes to the lead byte; cut before it unless its character fits.
  for (let back = 0; back < 4 && limit - back > 0; back++) {
    const at = limit - back;
    const byte = bytes[at];
    if ((byte & 0xc0) !== 0x80) return at;
  }
  return limit;
}

/** `index` in `text`, or one unit less when it falls between the two halves of a surrogate pair. */
export function codePointBoundary(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return index;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff ? index - 1 : index;
}

/** Characters (code points) in `text`, as SQLite's length() and `[...text].length` count them: a surrogate pair is one. */
export function codePointLength(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}
