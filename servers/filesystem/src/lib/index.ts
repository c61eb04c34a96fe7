/**
 * Domain code of the filesystem server: plain TypeScript, no MCP. Tools resolve every
 * client path through a PathPolicy, then call these functions with the real path it
 * returns. Every failure is an FsError whose message tells the model what to do next.
 *
 * errors.ts
 *   class FsError extends Error { code: FsErrorCode }
 *   isFsError(error, code?): error is FsError
 *   toFsError(error, path): unknown             Node errno -> FsError (others pass through)
 *   errnoCode(error): string | undefined
 *
 * path-policy.ts
 *   createPathPolicy(getAllowed: () => string[] | Promise<string[]>): PathPolicy
 *     .allowed()                  the allowed dirs; NO_ALLOWED_DIRECTORIES when none
 *     .resolveReadable(p)         existing path -> real path
 *     .resolveFile(p)             ... that is a regular file
 *     .resolveDirectory(p)        ... that is a directory
 *     .resolveWritable(p)         path that may not exist -> real path to create/replace
 *   isWithin(parent, child): boolean            segment-wise containment
 *   realpathAllowedDirs(inputs): Promise<{ directories, skipped: {input, reason}[] }>
 *
 * atomic-write.ts
 *   writeFileAtomic(target, data: string | Uint8Array | (Async)Iterable<chunk>,
 *                   { overwrite = true, mode?, durable = true }): Promise<void>
 *   isAtomicTempName(name): boolean
 *
 * read-text.ts                                   -> TextSlice { text, lines, truncated, bytesRead }
 *   readHead(file, lines, { maxBytes? })
 *   readTail(file, lines, { maxBytes? })         reads backwards; cost ~ size of the lines
 *   readLineRange(file, start, end?, { maxBytes? })   1-based inclusive; OUT_OF_RANGE past the end
 *   readWhole(file, maxBytes = DEFAULT_MAX_TEXT_BYTES): Promise<string>   TOO_LARGE with advice
 *
 * edit.ts / unified-diff.ts
 *   applyEdits(original, edits: {oldText, newText}[], { path? }): { content, diff, applied }
 *   unifiedDiff(oldText, newText, displayPath = 'file', context = 3): string
 *   diffLines(a: string[], b: string[]): DiffOp[]
 *
 * walk.ts                                        -> WalkEntry { path, relative, name, type, depth }
 *   walk(root, { after?, excludes?, respectGitignore = true, gitignoreBoundary?, maxDepth?,
 *                signal?, onDirectory? }): AsyncGenerator<WalkEntry>
 *   walkFiles(root, options)                     files only
 *   walkBatches(root, options): AsyncGenerator<WalkEntry[]>   same walk, for bulk consumers
 *   compareNames(a, b), compareRelativePaths(a, b), compileGlobs(globs)
 *
 * search.ts
 *   searchFiles(root, pattern, { excludePatterns?, respectGitignore?, gitignoreBoundary?,
 *               signal?, onProgress?, maxResults? }): Promise<{ matches, truncated, scanned }>
 *   compileSearchPattern(pattern)
 *
 * grep.ts                                       matching runs in a per-call worker (worker-channel.ts)
 *   grepFiles(root, { pattern, literal?, caseSensitive = true, include?, exclude?,
 *             contextLines?, maxResults = 200, maxFileBytes = 50 MB, maxLineLength = 500,
 *             maxOutputBytes = 2.5 M, timeoutMs = 120 s,
 *             respectGitignore?, gitignoreBoundary?, signal?, onProgress? })
 *     : Promise<{ matches: {path, relative, line, column, text, before, after}[],
 *                 truncated, truncatedBy?, filesScanned, filesMatched,
 *                 skipped: {binary, tooLarge, unreadable} }>      context merged as grep -C
 *
 * worker-channel.ts
 *   openWorkerChannel(makeHandler, init, { signal?, timeoutMs?, timeoutMessage?, maxHeapMb? })
 *     : Promise<{ request(req): Promise<reply>, close() }>   a worker thread for one call
 *
 * glob-guard.ts
 *   assertSafeGlobs(globs, label)                 refuses globs that could backtrack (INVALID_PATTERN)
 *   unsafeGlobReason(glob), nestedRepetition(regexSource)
 *
 * tree.ts
 *   directoryTree(root, { excludePatterns?, respectGitignore?, gitignoreBoundary?,
 *                 maxEntries = 10,000, maxDepth?, signal?, onProgress? })
 *     : Promise<{ tree: TreeNode[], entries, truncated }>
 *
 * list-directory.ts
 *   listDirectory(dir, { respectGitignore = true, gitignoreBoundary?, withSizes?,
 *                 sortBy: 'name' | 'size', signal? })
 *     : Promise<{ entries: {name, type, size?, modified?}[], ignored, totalFiles,
 *                 totalDirectories, totalSize? }>
 *
 * file-info.ts   getFileInfo(path): { size, created, modified, accessed, isDirectory, isFile, permissions }
 * copy-move.ts   copyFile(src, dest, { overwrite? }), copyDirectory(src, dest), moveFile(src, dest, { overwrite? })
 * mime.ts        mimeTypeOf(path), contentMimeType(path, data), listedMimeType(path), isTextMime(mime)
 * format-size.ts formatSize(bytes)              the official server's "1.50 KB" rendering
 * gitignore.ts   parseGitignore, withGitignoreOf, loadGitignoreChain, isIgnored
 * time-slice.ts  createTimeSlicer(signal?, sliceMs?)
 *
 * Used by the tools and resources layer:
 * access.ts      allowedDirectories(ceiling, roots), outermost(dirs)
 * entry-path.ts  resolveEntry(policy, requested): { entry, real }
 * file-uri.ts    fileUri(absolute), pathOfFileUri(uri)
 * (search.ts)    findEntries(root, pattern, { after?, ... }): lazy, resumable search_files
 * recent-edits.ts createRecentEdits(limit)
 */
export * from './errors.js';
export * from './path-policy.js';
export * from './atomic-write.js';
export * from './read-text.js';
export * from './edit.js';
export * from './unified-diff.js';
export * from './walk.js';
export * from './search.js';
export * from './grep.js';
export * from './worker-channel.js';
export * from './glob-guard.js';
export * from './tree.js';
export * from './list-directory.js';
export * from './file-info.js';
export * from './copy-move.js';
export * from './mime.js';
export * from './format-size.js';
export * from './gitignore.js';
export * from './time-slice.js';
export * from './access.js';
export * from './entry-path.js';
export * from './file-uri.js';
export * from './recent-edits.js';
