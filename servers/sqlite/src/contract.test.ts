import { describeServerContract, makeSqliteDb } from '@mcp-reference/test-harness';
import { createSqliteServer } from './server.js';
import { bin } from './test-support.js';

describeServerContract('sqlite', {
  bin,
  async setup() {
    const tables = Array.from({ length: 8 }, (_, i) => `CREATE TABLE t${i} (id INTEGER PRIMARY KEY, label TEXT); INSERT INTO t${i} (label) VALUES ('row of t${i}');`);
    const db = await makeSqliteDb(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada'); ${tables.join('\n')}`);
    return {
      args: ['--db-path', db.file],
      create: ({ pageSize }) => createSqliteServer({ dbPath: db.file, pageSize, logLevel: 'error' }),
      pageSize: 5,
      linkingCall: { name: 'read_query', arguments: { query: 'SELECT name FROM users' } },
      completion: { ref: { type: 'ref/resource', uri: 'sqlite://table/{name}' }, argument: { name: 'name', value: 'us' }, expect: 'users' },
      subscription: { uri: 'sqlite://table/users', change: async () => db.exec("INSERT INTO users (name) VALUES ('grace')") },
      cleanup: db.cleanup,
    };
  },
});
