// Cutting UTF-8 bytes without splitting a character: a cut answer must decode, and the
// offset it names to read on from must start a character.

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
