import type { Engine } from './engine.js';
import type { QuickReader } from './quick-reader.js';
import type { Schema } from './schema.js';

/**
 * Where the schema comes from. A small one is read in the server process (quick-reader.ts,
 * kept there per schema version). A large one is read by an engine process, off this
 * process's event loop (20,000 tables took 3.3 s of it), and its answer is kept here until
 * the schema version changes, which the server process reads without reading the schema:
 * after the first read, list_tables, describe_table and the completions of such a
 * database answer from memory.
 */
export function createSchemaSource(quick: QuickReader, engine: Engine): (signal?: AbortSignal) => Promise<Schema> {
  let kept: { version: unknown; schema: Schema } | undefined;
  return async (signal) => {
    const small = quick.schema() as Schema | undefined;
    if (small !== undefined) return small;
    // Read before the engine reads the schema: if it changes meanwhile, what is kept is newer
    // than its version says, and the next call reads it again.
    const version = quick.schemaVersion();
    if (version !== undefined && kept?.version === version) return kept.schema;
    const schema = JSON.parse((await engine.call<{ json: string }>('schema', {}, { signal })).json) as Schema;
    kept = version === undefined ? undefined : { version, schema };
    return schema;
  };
}
