import { promises as fsp } from 'node:fs';
import { toFsError } from './errors.js';

/** get_file_info: the fields of the official server, same names and meanings. */
export interface FileInfo {
  size: number;
  created: Date;
  modified: Date;
  accessed: Date;
  isDirectory: boolean;
  isFile: boolean;
  /** Octal permission bits, e.g. "644". */
  permissions: string;
}

/** Metadata of a path the policy has already resolved (so symlinks are already followed). */
export async function getFileInfo(file: string): Promise<FileInfo> {
  const stats = await fsp.stat(file).catch((error: unknown) => Promise.reject(toFsError(error, file)));
  return {
    size: stats.size,
    created: stats.birthtime,
    modified: stats.mtime,
    accessed: stats.atime,
    isDirectory: stats.isDirectory(),
    isFile: stats.isFile(),
    permissions: (stats.mode & 0o777).toString(8).padStart(3, '0'),
  };
}
