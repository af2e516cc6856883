/**
 * A PostgreSQL wire-protocol front for one PGlite instance, shared by many client connections.
 *
 * PGlite is a single session. `@electric-sql/pglite-socket`'s server runs the clients' protocol messages one at
 * a time and lets any connection's message run between two messages of another one unless an explicit
 * transaction is open: the extended query protocol (Parse/Bind/Describe/Execute/Sync, what `pg` sends for every
 * parameterised query) of two connections interleaves message by message, one connection's unnamed statement
 * or portal replaces the other's, and queries return another query's rows, or none ("space not found",
 * "revision not found", "no bytes stored for blob"…), or fail on a mismatched Bind.
 *
 * This front switches the session from one connection to another only at a boundary where the session holds
 * nothing of the connection: after a batch of messages ending with Sync or a simple Query whose ReadyForQuery
 * says "idle" (outside any transaction). While a connection is inside a transaction (or between a Flush and its
 * Sync), the session stays its own; other connections wait, in arrival order. A connection that leaves (or
 * dies) inside a transaction has it rolled back; one idle inside a transaction for longer than
 * `idleInTransactionTimeoutMs` while others wait is disconnected (PostgreSQL's
 * idle_in_transaction_session_timeout) so that it cannot stall everyone.
 */
import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const MAX_MESSAGE_BYTES = 1024 * 1024 * 1024;

/** What the client said at startup (user, database, application_name…). */
export type StartupParams = Record<string, string>;

/**
 * An optional authentication step run before the startup message reaches PGlite: `send` writes backend
 * messages (e.g. an AuthenticationCleartextPassword request), `receive` resolves with the client's next whole
 * message (e.g. its PasswordMessage). Resolve false to refuse the connection (28P01).
 */
export type WireAuthenticator = (params: StartupParams, exchange: { send(message: Uint8Array): void; receive(): Promise<Buffer> }) => Promise<boolean>;

export interface PgliteWireServerOptions {
  db: PGlite;
  host?: string;
  port?: number;
  /** Listen on this unix socket path instead of host/port. */
  path?: string;
  /** Connections accepted at once; more are refused with SQLSTATE 53300. Default 64. */
  maxConnections?: number;
  /** Default 60 s. */
  idleInTransactionTimeoutMs?: number;
  authenticate?: WireAuthenticator;
  /** Called with what went wrong on a connection (never with query text or parameters). */
  onError?: (err: unknown) => void;
}

/** One backend message: type byte, length, payload. */
function backendMessage(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(payload.length + 4, 1);
  return Buffer.concat([header, payload]);
}

/** An ErrorResponse (severity FATAL) with SQLSTATE `code`. */
export function fatalError(code: string, message: string): Buffer {
  const field = (t: string, v: string) => Buffer.concat([Buffer.from(t, 'latin1'), Buffer.from(v, 'utf8'), Buffer.from([0])]);
  return backendMessage('E', Buffer.concat([field('S', 'FATAL'), field('V', 'FATAL'), field('C', code), field('M', message), Buffer.from([0])]));
}

const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const ROLLBACK = backendMessage('Q', Buffer.from('ROLLBACK\0', 'latin1'));

class Connection {
  /** Bytes received and not yet cut into messages. */
  private buffer: Buffer = Buffer.alloc(0);
  /** Whole messages since the last batch boundary. */
  private current: Buffer[] = [];
  /** Batches ready to run, in order. */
  readonly batches: Buffer[][] = [];
  startupDone = false;
  /** The session holds state of this connection (open transaction, unsynced extended protocol). */
  holdsSession = false;
  closed = false;
  /** Its hold on the session is being (or was) given up. */
  released = false;
  /** Set while an authenticator waits for the client's next message. */
  private receiver: ((message: Buffer) => void) | null = null;
  private authenticating = false;

  constructor(
    readonly socket: net.Socket,
    private readonly server: PgliteWireServer,
  ) {}

  onData(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.closed) return;
      if (!this.startupDone && !this.authenticating) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (length < 8 || length > 10_000) return this.fail('08P01', 'invalid startup packet');
        if (this.buffer.length < length) return;
        const packet = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        const code = packet.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) {
          // PGlite has no backend to signal: a cancel request is consumed and its connection closed.
          this.socket.end();
          return;
        }
        if (code !== PROTOCOL_3) return this.fail('0A000', `unsupported frontend protocol ${code >> 16}.${code & 0xffff}`);
        this.startup(Buffer.from(packet));
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1);
      if (length < 4 || length > MAX_MESSAGE_BYTES) return this.fail('08P01', 'invalid message length');
      if (this.buffer.length < length + 1) return;
      const message = Buffer.from(this.buffer.subarray(0, length + 1));
      this.buffer = this.buffer.subarray(length + 1);
      if (this.receiver) {
        const r = this.receiver;
        this.receiver = null;
        r(message);
        continue;
      }
      if (this.authenticating) continue;
      this.onMessage(message);
    }
  }

  private startup(packet: Buffer): void {
    const authenticate = this.server.authenticator;
    if (!authenticate) {
      this.startupDone = true;
      this.enqueue([packet]);
      return;
    }
    const params: StartupParams = {};
    const parts = packet.subarray(8).toString('utf8').split('\0');
    for (let i = 0; i + 1 < parts.length && parts[i]; i += 2) params[parts[i]!] = parts[i + 1]!;
    this.authenticating = true;
    const exchange = {
      send: (message: Uint8Array) => {
        if (!this.closed) this.socket.write(message);
      },
      receive: () => new Promise<Buffer>((resolve) => (this.receiver = resolve)),
    };
    authenticate(params, exchange).then(
      (ok) => {
        this.authenticating = false;
        if (!ok) return this.fail('28P01', 'authentication failed');
        this.startupDone = true;
        this.enqueue([packet]);
        if (this.buffer.length) this.onData(Buffer.alloc(0));
      },
      (err: unknown) => {
        this.server.reportError(err);
        this.fail('28000', 'authentication failed');
      },
    );
  }

  private onMessage(message: Buffer): void {
    const type = String.fromCharCode(message[0]!);
    if (type === 'X') {
      // Terminate: never handed to PGlite (the session outlives every client).
      this.socket.end();
      return;
    }
    this.current.push(message);
    // A batch ends where the client waits for answers: Sync and simple Query end with ReadyForQuery; Flush
    // asks for the answers so far without ending the implicit transaction (the session stays this connection's).
    if (type === 'S' || type === 'Q' || type === 'H') {
      this.enqueue(this.current);
      this.current = [];
    }
  }

  private enqueue(batch: Buffer[]): void {
    this.batches.push(batch);
    this.server.schedule(this);
  }

  fail(code: string, message: string): void {
    if (this.closed) return;
    if (this.socket.writable) {
      this.socket.end(fatalError(code, message));
      this.socket.destroySoon();
    } else this.socket.destroy();
    this.server.disconnected(this);
  }
}

/** Serves `db` to many clients without ever interleaving two connections' statements or transactions. */
export class PgliteWireServer {
  private readonly db: PGlite;
  private readonly options: PgliteWireServerOptions;
  private server: net.Server | null = null;
  private readonly connections = new Set<Connection>();
  /** Every socket accepted and not yet closed (refused ones too), destroyed by stop(). */
  private readonly sockets = new Set<net.Socket>();
  /** The connection whose state the session holds (between its batches), or null. */
  private owner: Connection | null = null;
  /** Connections with a batch to run, in arrival order. */
  private readonly waiting: Connection[] = [];
  private running = false;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(options: PgliteWireServerOptions) {
    this.db = options.db;
    this.options = options;
  }

  get authenticator(): WireAuthenticator | undefined {
    return this.options.authenticate;
  }

  reportError(err: unknown): void {
    this.options.onError?.(err);
  }

  async start(): Promise<void> {
    await this.db.waitReady;
    const server = net.createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      const done = () => {
        server.off('error', reject);
        server.on('error', (err) => this.reportError(err));
        resolve();
      };
      if (this.options.path) server.listen(this.options.path, done);
      else server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', done);
    });
  }

  /** `host:port` (or the socket path) the server listens on. */
  address(): string {
    const a = this.server?.address();
    if (!a) throw new Error('the server is not listening');
    return typeof a === 'string' ? a : `${a.address}:${a.port}`;
  }

  get port(): number {
    const a = this.server?.address();
    return a && typeof a === 'object' ? a.port : 0;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    // Let a running batch and the rollback of the last owner finish before the caller closes the database.
    while (this.running || this.owner) await new Promise((r) => setTimeout(r, 10));
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    const connection = new Connection(socket, this);
    if (this.connections.size >= (this.options.maxConnections ?? 64)) {
      socket.on('error', () => {});
      // The client reads this right after its startup packet: a clear, retryable error instead of a reset.
      socket.end(fatalError('53300', 'sorry, too many clients already'));
      socket.destroySoon();
      return;
    }
    this.connections.add(connection);
    socket.on('data', (chunk: Buffer) => {
      try {
        connection.onData(chunk);
      } catch (err) {
        this.reportError(err);
        connection.fail('XX000', 'internal error of the embedded database server');
      }
    });
    socket.on('error', () => this.disconnected(connection));
    socket.on('close', () => this.disconnected(connection));
  }

  /** Forgets the connection; if the session holds its transaction, rolls it back. */
  disconnected(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    this.connections.delete(connection);
    connection.batches.length = 0;
    const i = this.waiting.indexOf(connection);
    if (i >= 0) this.waiting.splice(i, 1);
    if (this.owner === connection && !this.running) void this.release(connection);
    // When it is running a batch, the end of that batch releases it (see run()).
  }

  schedule(connection: Connection): void {
    if (!this.waiting.includes(connection)) this.waiting.push(connection);
    void this.pump();
  }

  private async release(connection: Connection): Promise<void> {
    if (this.owner !== connection || connection.released) return;
    connection.released = true;
    this.clearIdleTimer();
    if (connection.holdsSession) {
      this.running = true;
      try {
        // End any unsynced extended-protocol exchange, then roll back whatever transaction is open.
        await this.db.runExclusive(() => this.db.execProtocolRawStream(Buffer.concat([SYNC, ROLLBACK]), { onRawData: () => {} }));
      } catch (err) {
        this.reportError(err);
      } finally {
        this.running = false;
      }
      connection.holdsSession = false;
    }
    this.owner = null;
    void this.pump();
  }

  private next(): Connection | null {
    if (this.owner) {
      if (this.owner.closed) return null;
      return this.owner.batches.length ? this.owner : null;
    }
    while (this.waiting.length) {
      const c = this.waiting[0]!;
      if (!c.closed && c.batches.length) return c;
      this.waiting.shift();
    }
    return null;
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    for (;;) {
      const connection = this.next();
      if (!connection) break;
      const batch = connection.batches.shift()!;
      const w = this.waiting.indexOf(connection);
      if (w >= 0) this.waiting.splice(w, 1);
      if (connection.batches.length) this.waiting.unshift(connection);
      this.owner = connection;
      this.clearIdleTimer();
      this.running = true;
      let status: number | null = null;
      let failed = false;
      try {
        status = await this.run(connection, batch);
      } catch (err) {
        failed = true;
        this.reportError(err);
      } finally {
        this.running = false;
      }
      const last = batch[batch.length - 1]!;
      const ends = isStartup(batch[0]!) || last[0] === 0x53 /* Sync */ || last[0] === 0x51; /* Query */
      // After a startup packet, Sync or Query answered "idle" ('I'), the session holds nothing of this connection.
      connection.holdsSession = failed || !ends || (status !== null ? status !== 0x49 : this.db.isInTransaction());
      if (failed) connection.fail('XX000', 'internal error of the embedded database server');
      if (connection.closed) {
        await this.release(connection);
        return;
      }
      if (connection.holdsSession) {
        if (!connection.batches.length) this.armIdleTimer(connection);
      } else {
        this.owner = null;
        if (connection.batches.length && !this.waiting.includes(connection)) this.waiting.push(connection);
      }
    }
  }

  /** Runs one batch through PGlite, streaming the answers to the client; resolves with the last ReadyForQuery status. */
  private async run(connection: Connection, batch: Buffer[]): Promise<number | null> {
    const tail = Buffer.alloc(6);
    let seen = 0;
    const input = batch.length === 1 ? batch[0]! : Buffer.concat(batch);
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(input, {
        onRawData: (data: Uint8Array) => {
          if (!data.length) return;
          if (!connection.closed && connection.socket.writable) connection.socket.write(Buffer.from(data));
          // Keep the last 6 bytes: a batch's answer ends with ReadyForQuery ('Z', length 5, status).
          if (data.length >= 6) Buffer.from(data.buffer, data.byteOffset + data.length - 6, 6).copy(tail);
          else {
            tail.copy(tail, 0, data.length);
            Buffer.from(data.buffer, data.byteOffset, data.length).copy(tail, 6 - data.length);
          }
          seen += data.length;
        },
      }),
    );
    if (seen >= 6 && tail[0] === 0x5a && tail.readInt32BE(1) === 5) return tail[5]!;
    return null;
  }

  private armIdleTimer(connection: Connection): void {
    const ms = this.options.idleInTransactionTimeoutMs ?? 60_000;
    this.idleTimer = setTimeout(() => {
      if (this.owner !== connection || connection.batches.length) return;
      if (!this.waiting.some((c) => c !== connection && c.batches.length)) return this.armIdleTimer(connection);
      connection.fail('25P03', 'terminating connection due to idle-in-transaction timeout');
    }, ms);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}

/** A startup packet (no type byte: length then protocol 3.0). */
function isStartup(message: Buffer): boolean {
  return message.length >= 8 && message.readInt32BE(4) === PROTOCOL_3;
}
