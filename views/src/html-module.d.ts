// Each view entry of this package (`@mcp-reference/views/<name>`) is built by build.mjs
// into a module whose default export returns the view's whole HTML document (kept
// compressed in the module, unpacked on the call).
declare function html(): string;
export default html;
