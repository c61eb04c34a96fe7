// What a conversion worker needs, for development mode: converter.ts bundles this file on the
// fly into the worker's script (the published bundle's worker runs the whole CLI file instead).
export { htmlToMarkdown } from './html-to-markdown.js';
export { decodeBody } from './content-type.js';
