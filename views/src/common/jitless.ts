// Imported first by every view: zod 4 probes `new Function` when it first parses, which the
// hosts' default CSP (no 'unsafe-eval') reports as a violation. ext-apps' App sets this
// too, but only when constructed, after its schemas were built at import.
import { config } from 'zod/v4/core';

config({ jitless: true });
