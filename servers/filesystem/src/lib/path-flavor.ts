import nodePath from 'node:path';

/**
 * The path rules of a platform: its path module (drive letters and both separators on
 * Windows) and whether names compare case-insensitively (Windows, and the default volumes
 * of macOS). Code that depends on them takes a flavor, so the rules of one platform can
 * be tested on another.
 */
export interface PathFlavor {
  path: nodePath.PlatformPath;
  caseInsensitive: boolean;
}

export function pathFlavor(platform: NodeJS.Platform = process.platform): PathFlavor {
  return platform === 'win32'
    ? { path: nodePath.win32, caseInsensitive: true }
    : { path: nodePath.posix, caseInsensitive: platform === 'darwin' };
}

/**
 * The `{+path}` of `file:///{+path}` as a local path: "home/me" is "/home/me"; on Windows
 * "C:/Users/me" is "C:\Users\me" (a leading "/" before the drive is tolerated).
 */
export function uriPathToLocal(value: string, { path }: PathFlavor): string {
  if (path.sep === '/') return `/${value}`;
  return value.replace(/^\/(?=[A-Za-z]:)/, '').replaceAll('/', '\\');
}

/** The inverse: a local path as the `{+path}` of `file:///{+path}`. */
export function localToUriPath(local: string, { path }: PathFlavor): string {
  return path.sep === '/' ? local.replace(/^\//, '') : local.replaceAll('\\', '/');
}
