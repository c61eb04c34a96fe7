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
 *     .scope()                    the same as the base's DirectorySet (holds, outermost, describe)
 *     .resolveReadable(p)         existing path -> real path
 *     .resolveFile(p)             ... that is a regular file
 *     .resolveDirectory(p)        ... that is a directory
 *     .resolveWritable(p)         path that may not exist -> real path to create/replace
 *     .contains(real)             true when a real path is inside the allowed dirs
 *     .openFile(p)                { handle, real }: opened (O_NOFOLLOW|O_NONBLOCK), a regular
 *                                 file, its descriptor's real path checked inside
 *   isWithin(parent, child): boolean            segment-wise containment
 *   realpathAllowedDirs(inputs): Promise<{ directories, skipped: {input, reason}[] }>
 *
 * atomic-write.ts
 *   writeFileAtomic(target, data: string | Uint8Array | (Async)Iterable<chunk>,
 *                   { overwrite = true, mode?, durable = true, confine?, expect? }): Promise<void>
 *     confine: check the directory and temp file are the real ones inside (symlink swaps)
 *     expect: FileIdentity | 'absent': CONFLICT if the target changed/appeared meanwhile
 *   identityOf(bigintStats): FileIdentity      { dev, ino, size, mtimeNs }
 *   isAtomicTempName(name): boolean
 *
 * open-checked.ts                               opening what the check approved, nothing else
 *   openRegularFile(path, flags?)              O_NONBLOCK|O_NOFOLLOW, fstat isFile or NOT_A_FILE
 *   openRegularDescriptor(path, label?)        the same, into a Descriptor (callback API, no FileHandle)
 *   openDirectory(dir), realPathOfHandle(handle, openedPath)   /proc/self/fd, else dev+ino
 *   assertOpenedInside(handle, opened, confine), assertDirectoryInside(dir, confine)
 * descriptor.ts  Descriptor(fd): ReadableFile   read (thread pool), stat, readFile, close (after
 *                                               the reads in flight): what readers use of a FileHandle
 * proc-fd.ts     useProcFd(): boolean           ask /proc/self/fd where a descriptor is; false
 *                                               with MCP_FS_NO_PROC=1 (the macOS/Windows branches)
 * rename-retry.ts renameRetrying(from, to, label, { transient?, delays?, onRetry? })
 *                                               Windows: EPERM/EBUSY/EACCES retried, then "in use"
 * path-locks.ts  createPathLocks(): { run(key, task), size() }   one write per path at a time
 * make-dirs.ts   makeDirectories(dir, confine)   mkdir -p, each level checked inside
 * path-flavor.ts pathFlavor(platform?): { path, caseInsensitive }   a platform's path rules, injectable
 *   uriPathToLocal(value, flavor), localToUriPath(local, flavor)     file:///{+path} <-> local path
 * display-name.ts displayName(name)             a name as one line of text (control chars quoted)
 *
 * read-text.ts                                   -> TextSlice { text, lines, truncated, bytesRead }
 *   (source: a path, or { handle, label } opened and checked by the caller)
 *   readHead(source, lines, { maxBytes?, signal? })
 *   readTail(source, lines, { maxBytes?, signal? })   reads backwards; re-reads if the file shrank
 *   readLineRange(source, start, end?, { maxBytes?, signal?, maxScanBytes = 64 MiB })
 *                                                1-based inclusive; OUT_OF_RANGE past the end
 *   readWhole(source, maxBytes), readWholeBytes(source, maxBytes)   TOO_LARGE with advice
 *   readChunk(source, { byte } | { line }, { maxBytes?, signal?, reserve? }): ChunkSlice
 *                                                to the end or cut at maxBytes (line end, else a
 *                                                character boundary) with nextByte/nextLine; reads
 *                                                and decodes only what it returns
 * byte-budget.ts  createByteBudget(limit): { reserve(bytes) -> release, inFlight(), peak() }
 *                                                bytes of reads in flight, per server instance
 *
 * edit.ts / unified-diff.ts
 *   applyEdits(original, edits: {oldText, newText}[], { path? }): { content, diff, applied }
 *   applyEditsToBytes(bytes, edits, { path?, signal? }): Promise<{ content: Buffer, diff, applied, changed }>
 *                                                every byte outside the edits kept; yields every ~10 ms
 *   unifiedDiff(oldText, newText, displayPath = 'file', context = 3): string
 *   unifiedDiffOfRegions(old, new, regions, displayPath?, context?): Generator<void, string>
 *   diffLines(a: string[], b: string[]): DiffOp[]   diffLinesSteps: the same, yielding as it goes
 *                                                (Myers, bounded: past 2,000 differing lines or
 *                                                20M steps the middle is removed-then-added)
 *   shortenDiff(diff, maxBytes, why): { diff, cut }   cut at a line, with a note
 *   countMatches(hay, needle, from?, keep?)     every (overlapping) match in one linear pass
 *
 * walk.ts                                        -> WalkEntry { path, relative, name, type, depth, parent }
 *   walk(root, { after?, excludes?, respectGitignore = true, gitignoreBoundary?, maxDepth?,
 *                signal?, onDirectory?, keep?(name), counter? }): AsyncGenerator<WalkEntry>
 *   walkFiles(root, options)                     files only
 *   walkBatches(root, options): AsyncGenerator<WalkEntry[]>   same walk, for bulk consumers
 *   compareNames(a, b), compareRelativePaths(a, b), compileGlobs(globs, globOptions?, label?)
 *
 * search.ts
 *   searchFiles(root, pattern, { excludePatterns?, respectGitignore?, gitignoreBoundary?,
 *               signal?, onProgress?, maxResults? }): Promise<{ matches, truncated, scanned }>
 *   compileSearchPattern(pattern)
 *
 * grep.ts                                       matching runs on pooled workers (the base's openWorkerChannel)
 *   grepFiles(root, { pattern, literal?, caseSensitive = true, include?, exclude?,
 *             contextLines?, maxResults = 200, maxFileBytes = 50 MB, maxLineLength = 500,
 *             maxOutputBytes = 4 M, timeoutMs = 120 s,
 *             respectGitignore?, gitignoreBoundary?, signal?, onProgress? })
 *     : Promise<{ matches: {path, relative, line, column, text, before, after}[],
 *                 truncated, truncatedBy?, filesScanned, filesMatched,
 *                 skipped: {binary, tooLarge, unreadable} }>      context merged as grep -C
 *
 * glob.ts                                       globs in linear time (RE2 via re2js), minimatch semantics
 *   compileGlob(glob, { caseInsensitive?, platform? }, label): { test(path), source, negated }
 *   compileGlobSet(globs, options, label): (path) => boolean   any of them, in one pass
 *   globToRegExpSource(glob, options), escapeNote(glob, platform), isPlainGlob(text)
 *
 * regex.ts                                      grep patterns: RE2 syntax, refused constructs named
 *   compileRegex(pattern, { caseInsensitive? }): { source, flags }, quoteRegex(text), unsupportedConstruct(pattern)
 *
 * tree.ts
 *   directoryTree(root, { excludePatterns?, respectGitignore?, gitignoreBoundary?,
 *                 maxEntries = 10,000, maxDepth?, signal?, onProgress? })
 *     : Promise<{ tree: TreeNode[], entries, truncated, skipped? }>   skipped: too deep (PATH_MAX) / loops
 *
 * list-directory.ts
 *   listDirectory(dir, { respectGitignore = true, gitignoreBoundary?, withSizes?,
 *                 sortBy: 'name' | 'size', signal? })
 *     : Promise<{ entries: {name, type, size?, modified?}[], ignored, totalFiles,
 *                 totalDirectories, totalSize? }>
 *
 * file-info.ts   getFileInfo(path): { size, created, modified, accessed, isDirectory, isFile, permissions }
 * copy-move.ts   copyFile(src, dest, { overwrite?, confine? }), copyDirectory(src, dest, { confine? }) (all or
 *                nothing; refuses FIFOs, sockets, devices), moveFile(src, dest, { overwrite?, confine? })
 *                renameTarget(source, resolved, typed, flavor), isSameEntry(a, b)   case-only renames in place
 * mime.ts        mimeTypeOf(path), contentMimeType(path, data), listedMimeType(path), isTextMime(mime)
 * format-size.ts formatSize(bytes)              the official server's "1.50 KB" rendering
 * gitignore.ts   parseGitignore, withGitignoreOf, loadGitignoreChain, isIgnored (skipped files reported via onSkip)
 * gitignore-rules.ts parseGitignoreRules(text, { ignoreCase? }).test(rel, isDirectory): git's matching, one
 *                hash lookup per kind of rule (names, extensions, prefixes, anchored paths), not a try per rule
 *                (a .gitignore is read with the base's readOwnFileSync: regular, not a symlink, no
 *                blocking open, size-capped, where expected)
 * case-sensitivity.ts isCaseInsensitiveAt(dir), createGlobSettings(platform): per allowed directory
 * time-slice.ts  createTimeSlicer(signal?, sliceMs?)
 *
 * Used by the tools and resources layer:
 * access.ts      allowedDirectories(ceiling, roots)
 * entry-path.ts  resolveEntry(policy, requested, { linkItself? }): { entry, real }
 * file-uri.ts    fileUri(absolute), pathOfFileUri(uri)
 * (search.ts)    findEntries(root, pattern, { after?, ... }): lazy, resumable search_files
 * recent-edits.ts createRecentEdits({ limit?, maxBytes?, maxDiffBytes? })   bounded by count and bytes
 * listing-snapshots.ts createListingSnapshots({ maxSnapshots?, maxItems?, ttlMs? })
 *                                                listings kept between pages, per owner, bounded
 */
export * from './errors.js';
export * from './path-policy.js';
export * from './atomic-write.js';
export * from './open-checked.js';
export * from './path-locks.js';
export * from './path-flavor.js';
export * from './proc-fd.js';
export * from './rename-retry.js';
export * from './make-dirs.js';
export * from './display-name.js';
export * from './read-text.js';
export * from './edit.js';
export * from './unified-diff.js';
export * from './walk.js';
export * from './search.js';
export * from './grep.js';
export * from './glob.js';
export * from './regex.js';
export * from './tree.js';
export * from './list-directory.js';
export * from './file-info.js';
export * from './copy-move.js';
export * from './mime.js';
export * from './format-size.js';
export * from './gitignore.js';
export * from './case-sensitivity.js';
export * from './time-slice.js';
export * from './access.js';
export * from './entry-path.js';
export * from './file-uri.js';
export * from './recent-edits.js';
export * from './byte-budget.js';
export * from './listing-snapshots.js';
