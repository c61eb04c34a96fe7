// Each view entry of this package (`@mcp-reference/views/<name>`) is built by build.mjs
// into a module whose default export is the view's whole HTML document.
declare const html: string;
export default html;
