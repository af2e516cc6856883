/**
 * The pglite-server's multiplexing at the wire level: one connection's extended-protocol exchange (Parse/Bind …
 * Execute/Sync, sent in several writes) is never interleaved with another connection's; a client idle inside a
 * transaction cannot stall the others for ever; a connection over the limit is refused with SQLSTATE 53300,
 * which the store reports as a retryable StoreTransientError.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { startPgliteServer } from '../../src/store/index.js';
import { PgliteWireServer } from '../../src/store/pglite-wire-server.js';
import { StoreTransientError } from '../../src/store/errors.js';
import { translateStoreError } from '../../src/store/transient-errors.js';

const server = await startPgliteServer({ dataDir: 'memory://', maxConnections: 4 });
const db = await PGlite.create('memory://');
const idleServer = new PgliteWireServer({ db, idleInTransactionTimeoutMs: 300 });
await idleServer.start();

afterAll(async () => {
  await server.stop();
  await idleServer.stop();
  await db.close();
});

const message = (type: string, body: Buffer) => {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
};
const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const parse = (sql: string) => message('P', Buffer.concat([cstr(''), cstr(sql), int16(0)]));
const bind = () => message('B', Buffer.concat([cstr(''), cstr(''), int16(0), int16(0), int16(0)]));
const execute = () => message('E', Buffer.concat([cstr(''), Buffer.alloc(4)]));
const sync = () => message('S', Buffer.alloc(0));

/** A raw protocol-3 connection: collects the backend's messages. */
async function rawClient(socketPath: string) {
  const socket = net.connect({ path: socketPath });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffer = Buffer.alloc(0);
  const messages: Array<{ type: string; body: Buffer }> = [];
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 5 && buffer.length >= buffer.readInt32BE(1) + 1) {
      const len = buffer.readInt32BE(1);
      messages.push({ type: String.fromCharCode(buffer[0]!), body: buffer.subarray(5, len + 1) });
      buffer = buffer.subarray(len + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  const readyCount = () => messages.filter((m) => m.type === 'Z').length;
  const untilReady = async (n: number) => {
    while (readyCount() < n) await new Promise<void>((r) => waiters.push(r));
  };
  const params = Buffer.concat([cstr('user'), cstr('postgres'), cstr('database'), cstr('postgres'), Buffer.from([0])]);
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(8 + params.length, 0);
  startup.writeInt32BE(196608, 4);
  socket.write(Buffer.concat([startup, params]));
  await untilReady(1);
  /** The text values of the DataRows received so far. */
  const rows = () =>
    messages
      .filter((m) => m.type === 'D')
      .map((m) => {
        const len = m.body.readInt32BE(2);
        return m.body.subarray(6, 6 + len).toString('utf8');
      });
  return { socket, untilReady, rows, write: (b: Buffer) => socket.write(b) };
}

describe('pglite-server wire multiplexing', () => {
  it("never runs another connection's messages in the middle of an extended-protocol exchange", async () => {
    const a = await rawClient(server.socketPath);
    const b = await rawClient(server.socketPath);
    try {
      // A parses and binds its statement (no Sync yet), B runs a whole exchange, then A executes and syncs.
      a.write(Buffer.concat([parse("SELECT 'from-a'"), bind()]));
      await new Promise((r) => setTimeout(r, 100));
      b.write(Buffer.concat([parse("SELECT 'from-b'"), bind(), execute(), sync()]));
      await new Promise((r) => setTimeout(r, 100));
      a.write(Buffer.concat([execute(), sync()]));
      await Promise.all([a.untilReady(2), b.untilReady(2)]);
      expect(a.rows()).toEqual(['from-a']);
      expect(b.rows()).toEqual(['from-b']);
    } finally {
      a.socket.destroy();
      b.socket.destroy();
    }
  });

  it('disconnects a client idle inside a transaction while others wait, and rolls its transaction back', async () => {
    const url = `postgresql://postgres@127.0.0.1:${idleServer.port}/postgres`;
    const idle = new pg.Client({ connectionString: url });
    idle.on('error', () => {});
    await idle.connect();
    await idle.query('CREATE TABLE idle_rows (v text)');
    await idle.query('BEGIN');
    await idle.query("INSERT INTO idle_rows VALUES ('never committed')");
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      // Waits behind the open transaction until the idle client is cut off (300 ms), then sees no row of it.
      const rows = await other.query('SELECT v FROM idle_rows');
      expect(rows.rows).toEqual([]);
      await expect(idle.query('COMMIT')).rejects.toThrow();
    } finally {
      await other.end();
      await idle.end().catch(() => {});
    }
  });

  it('refuses connections over the limit with SQLSTATE 53300, a retryable store error', async () => {
    const clients = Array.from({ length: 4 }, () => new pg.Client({ connectionString: server.url }));
    await Promise.all(clients.map((c) => c.connect()));
    const extra = new pg.Client({ connectionString: server.url });
    try {
      const err = await extra.connect().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: '53300' });
      expect(translateStoreError(err)).toBeInstanceOf(StoreTransientError);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});
