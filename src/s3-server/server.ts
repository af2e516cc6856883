/**
 * Starts a real S3-compatible object store on loopback: S3Proxy (Java, its filesystem backend keeping the objects
 * under `dir`) on a free port, with one identity whose keys are made here, AWS signature v4 required. For the tests
 * of the `s3` blob store; nothing of it listens beyond 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureS3Proxy } from './install.js';

export interface S3Server {
  /** `http://127.0.0.1:<port>` of the S3 gateway. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The server's process id (for a test that kills it). */
  pid: number;
  /** The last lines the server printed (for a failure's message). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The settings that make S3Proxy the server Folio's tests run (besides the endpoint, keys and directory):
 * docker-compose.yml's s3 service sets the same through the image's variables (test/unit/docker-compose.test.ts).
 */
export const S3PROXY_SETTINGS = { 's3proxy.authorization': 'aws-v4', 'jclouds.provider': 'filesystem' } as const;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitReady(client: S3Client, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the S3 server exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    try {
      await client.send(new ListBucketsCommand({}));
      return;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`the S3 server did not answer within ${timeoutMs} ms (${(last as Error)?.message ?? 'no answer'}):\n${output()}`);
}

function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts the server with its data in `dir` (created); fetches S3Proxy first when needed. */
export async function startS3Server(options: { dir: string; readyTimeoutMs?: number }): Promise<S3Server> {
  const { path: jar } = await ensureS3Proxy({ quiet: true });
  const data = path.join(options.dir, 'objects');
  await mkdir(data, { recursive: true });
  const accessKeyId = `folio${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  const s3 = await freePort();
  const configFile = path.join(options.dir, 's3proxy.properties');
  // prettier-ignore
  const properties = [
    `s3proxy.endpoint=http://127.0.0.1:${s3}`, `s3proxy.identity=${accessKeyId}`, `s3proxy.credential=${secretAccessKey}`,
    ...Object.entries(S3PROXY_SETTINGS).map(([k, v]) => `${k}=${v}`), `jclouds.filesystem.basedir=${data}`,
  ];
  await writeFile(configFile, `${properties.join('\n')}\n`, { mode: 0o600 });
  const args = ['-Xmx256m', '-XX:+UseSerialGC', '-jar', jar, '--properties', configFile];
  const child = spawn('java', args, { cwd: options.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const endpoint = `http://127.0.0.1:${s3}`;
  const region = 'us-east-1';
  const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });
  try {
    await waitReady(client, child, () => tail, options.readyTimeoutMs ?? 120_000);
  } catch (err) {
    await stopChild(child, 5000);
    throw err;
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    pid: child.pid!,
    output: () => tail,
    stop: () => stopChild(child, 10_000),
  };
}
