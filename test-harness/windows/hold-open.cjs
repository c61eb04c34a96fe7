// Runs under Windows Node: hold-open.cjs FILE READY RELEASE
// Holds FILE open, as an editor, antivirus scanner or indexer does, writes READY once it
// has, and lets go when RELEASE appears (or after a minute).
'use strict';
const fs = require('node:fs');
const [file, ready, release] = process.argv.slice(2);
const fd = fs.openSync(file, 'r');
fs.writeFileSync(ready, '');
const timer = setInterval(() => {
  if (!fs.existsSync(release)) return;
  fs.closeSync(fd);
  clearInterval(timer);
}, 50);
setTimeout(() => process.exit(0), 60_000).unref();
