/**
 * A file name as one line of text output. Names may hold any byte but "/" and NUL, so a
 * name with a newline would forge a line in a listing ("[FILE] x\n[DIR] fake"), and other
 * control characters can rewrite a terminal. Such a name is shown JSON-quoted, with its
 * control characters escaped; so is a name starting with '"', so a quoted name always
 * means "this was escaped". Every other name is shown as it is.
 * Structured output keeps the real name: JSON escapes it already.
 */
export function displayName(name: string): string {
  return needsQuoting(name) ? JSON.stringify(name).replace(/[\u007f-\u009f\u2028\u2029]/g, escapeCode) : name;
}

// C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function needsQuoting(name: string): boolean {
  return UNSAFE.test(name) || name.startsWith('"');
}

function escapeCode(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
