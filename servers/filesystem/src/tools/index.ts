import { readTextFile, readFile } from './read-text-file.js';
import { readMediaFile } from './read-media-file.js';
import { readMultipleFiles } from './read-multiple-files.js';
import { listDirectory } from './list-directory.js';
import { listDirectoryWithSizes } from './list-directory-with-sizes.js';
import { directoryTree } from './directory-tree.js';
import { searchFiles } from './search-files.js';
import { grepFiles } from './grep-files.js';
import { getFileInfo } from './get-file-info.js';
import { listAllowedDirectories } from './list-allowed-directories.js';
import { writeFile } from './write-file.js';
import { editFile } from './edit-file.js';
import { createDirectory } from './create-directory.js';
import { moveFile } from './move-file.js';
import { copyFile } from './copy-file.js';
import { fsPreviewPage } from './fs-preview-page.js';

/** Tools that only read: all that --read-only leaves. */
export const readTools = [
  readTextFile,
  readMediaFile,
  readMultipleFiles,
  listDirectory,
  listDirectoryWithSizes,
  directoryTree,
  searchFiles,
  grepFiles,
  getFileInfo,
  listAllowedDirectories,
  readFile,
  fsPreviewPage,
];

/** Tools that write: removed by --read-only. */
export const writeTools = [writeFile, editFile, createDirectory, moveFile, copyFile];
