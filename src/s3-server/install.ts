/**
 * Fetches S3Proxy (`org.gaul:s3proxy`, Apache-2.0), an S3-compatible object store in one Java archive, from Maven
 * Central into `.tools/lib/`: the server the tests start on loopback for the `s3` blob store (its filesystem
 * backend keeps the objects in a directory). The version and the archive's SHA-256 are pinned here; a kept archive
 * is checked against that digest before it is used. Java 17 or later runs it (Debian: default-jre-headless).
 * Run by `npm test` (its pre-script). Idempotent; one clear message when the download or Java is missing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadToolsConfig, type ToolsConfig } from '../config/tools.js';

export const S3PROXY_VERSION = '4.1.0';
const S3PROXY_SHA256 = 'a4d025969aaf796616ed4b1e2491d87d455ce84bb28cb9db086b2e6aaa68b48d';
const S3PROXY_URL = `https://repo1.maven.org/maven2/org/gaul/s3proxy/${S3PROXY_VERSION}/s3proxy-${S3PROXY_VERSION}-jar-with-dependencies.jar`;

export function s3proxyJarPath(tools: ToolsConfig = loadToolsConfig()): string {
  return path.join(tools.dir, 'lib', `s3proxy-${S3PROXY_VERSION}.jar`);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function kept(jar: string): boolean {
  return existsSync(jar) && sha256(readFileSync(jar)) === S3PROXY_SHA256;
}

/** The major version of `java` on PATH, or null when there is none. */
export function javaMajorVersion(): number | null {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${r.stderr}${r.stdout}`);
  if (!m) return null;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

/** The archive, downloaded first when missing or not the pinned one. Returns its path and the download's seconds (0: kept). */
export async function ensureS3Proxy(options: { quiet?: boolean; tools?: ToolsConfig } = {}): Promise<{ path: string; downloadSeconds: number }> {
  const tools = options.tools ?? loadToolsConfig();
  const jar = s3proxyJarPath(tools);
  const java = javaMajorVersion();
  if (java === null || java < 17) {
    throw new Error(`the S3 test server (S3Proxy) needs Java 17 or later on PATH (found ${java ?? 'none'}). Run: apt-get install -y default-jre-headless`);
  }
  if (kept(jar)) return { path: jar, downloadSeconds: 0 };
  if (!options.quiet) process.stderr.write(`[install-s3-server] downloading S3Proxy ${S3PROXY_VERSION} from Maven Central into ${jar}\n`);
  const started = Date.now();
  const res = await fetch(S3PROXY_URL, { signal: AbortSignal.timeout(300_000) });
  if (!res.ok) throw new Error(`downloading ${S3PROXY_URL} answered ${res.status}; check access to Maven Central`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const digest = sha256(bytes);
  if (digest !== S3PROXY_SHA256) throw new Error(`the S3Proxy archive has SHA-256 ${digest}, not the pinned ${S3PROXY_SHA256}: refused`);
  mkdirSync(path.dirname(jar), { recursive: true });
  writeFileSync(`${jar}.part`, bytes);
  renameSync(`${jar}.part`, jar);
  return { path: jar, downloadSeconds: Math.round((Date.now() - started) / 1000) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { path: jar, downloadSeconds } = await ensureS3Proxy();
    process.stderr.write(`[install-s3-server] S3Proxy: ${jar}${downloadSeconds ? ` (downloaded in ${downloadSeconds} s)` : ''}\n`);
  } catch (err) {
    process.stderr.write(`[install-s3-server] ${(err as Error).message}\n`);
    process.exit(1);
  }
}
