/**
 * Starts a real S3-compatible object store on loopback: SeaweedFS's `weed server -s3` (master, volume server,
 * filer and S3 gateway in one process) on free ports, with one identity whose keys are made here. For the
 * tests and the production-shape run of the `s3` blob store; nothing of it listens beyond 127.0.0.1, and its
 * anonymous usage report is off.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureWeed } from './install.js';

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

/** Starts the server with its data in `dir` (created); builds `weed` first when needed. */
export async function startS3Server(options: { dir: string; readyTimeoutMs?: number }): Promise<S3Server> {
  const { path: weed } = ensureWeed({ quiet: true });
  await mkdir(options.dir, { recursive: true });
  const accessKeyId = `folio${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  const configFile = path.join(options.dir, 's3.json');
  const identity = {
    name: 'folio',
    credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }],
    actions: ['Admin', 'Read', 'List', 'Tagging', 'Write'],
  };
  await writeFile(configFile, JSON.stringify({ identities: [identity] }), { mode: 0o600 });
  const ports: number[] = [];
  for (let i = 0; i < 8; i++) ports.push(await freePort());
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc] = ports as [number, number, number, number, number, number, number, number];
  // prettier-ignore
  const args = [
    'server', '-s3', '-filer', '-ip=127.0.0.1', '-ip.bind=127.0.0.1', `-dir=${options.dir}`, '-master.telemetry=false',
    `-master.port=${master}`, `-master.port.grpc=${masterGrpc}`, '-master.volumeSizeLimitMB=64', '-volume.max=0',
    `-volume.port=${volume}`, `-volume.port.grpc=${volumeGrpc}`, `-filer.port=${filer}`, `-filer.port.grpc=${filerGrpc}`,
    `-s3.port=${s3}`, `-s3.port.grpc=${s3Grpc}`, '-s3.port.iceberg=0', '-s3.port.lance=0', `-s3.config=${configFile}`,
  ];
  const child = spawn(weed, args, { cwd: options.dir, stdio: ['ignore', 'pipe', 'pipe'] });
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
