/**
 * Whether to ask /proc/self/fd where a descriptor really is (Linux). macOS and Windows
 * have no /proc, and the code falls back to checking paths and inodes there; setting
 * MCP_FS_NO_PROC=1 makes Linux take those same branches, so the fallbacks are tested
 * (the filesystem suites run a second time with it). The one place the switch is read,
 * on every call, so a test can set it without reloading anything.
 */
export function useProcFd(): boolean {
  const value = process.env.MCP_FS_NO_PROC;
  return value === undefined || value === '' || value === '0';
}
