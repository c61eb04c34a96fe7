// Runs under Windows Node (node.exe under Wine) between the Linux test client and a
// server: relay.cjs SERVER_JS [ARG...]
//
// Wine 8 cannot hand node.exe a Unix pipe as stdin/stdout: libuv's pipe and stream
// handles fail with EBADF. Plain reads and writes on the descriptors work, so this script
// reads fd 0 and writes fd 1 itself, and spawns the server the way a Windows host (Claude
// Desktop) does: node.exe with Windows pipes for its stdio. The server sees nothing unusual.
'use strict';
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const { Writable } = require('node:stream');

// Node opens process.stdout/stderr lazily, even internally (a socket being destroyed asks
// whether it is one of them); under Wine that open fails with EBADF and would crash the
// relay. Plain writers on the same descriptors stand in for them.
for (const [name, fd] of [['stdout', 1], ['stderr', 2]]) {
  const stream = new Writable({ write: (chunk, _encoding, done) => done(writeAll(fd, chunk)) });
  Object.defineProperty(process, name, { value: stream, configurable: true });
}

function writeAll(fd, chunk) {
  for (let offset = 0; offset < chunk.length; ) offset += fs.writeSync(fd, chunk, offset);
}

const [script, ...args] = process.argv.slice(2);
if (!script) {
  fs.writeSync(2, 'usage: node relay.cjs SERVER_JS [ARG...]\n');
  process.exit(2);
}
const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });

child.stdout.on('data', (chunk) => writeAll(1, chunk));
child.stderr.on('data', (chunk) => writeAll(2, chunk));
child.on('error', (error) => {
  fs.writeSync(2, `relay: cannot start ${script}: ${error.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// fs.read on fd 0 runs in the thread pool, so a blocking read does not stall the relay.
const buffer = Buffer.alloc(64 * 1024);
const pump = () =>
  fs.read(0, buffer, 0, buffer.length, null, (error, bytes) => {
    if (error || bytes === 0) {
      // The client closed its end: so does the server's stdin, as a host would on exit.
      child.stdin.end();
      return;
    }
    child.stdin.write(Buffer.from(buffer.subarray(0, bytes)), pump);
  });
pump();
