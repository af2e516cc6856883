import SwaggerParser from '@apidevtools/swagger-parser';
import type { FileInfo } from '@apidevtools/json-schema-ref-parser';
import { stripCredentials } from '../redact.js';
import type { SpecInfo, SpecSource } from '../store/index.js';
import { specContentHash } from './content-hash.js';
import {
  FetchFailedError,
  FetchTimeoutError,
  SpecParseError,
  SpecTooComplexError,
  isFetchError,
  isStackOverflow,
  type OpenApiErrorCode,
  type SpecProblem,
} from './errors.js';
import { safeFetch, type SafeFetchOptions } from './fetch.js';
import { defaultRootName, filesystemKey, rootPathForUrl } from './filesystem-paths.js';
import { decodeDocumentText, looksLikeJson, parseDocumentText } from './parse-document.js';
import { problemsFromAjvErrors } from './validation-problems.js';

export type { SpecInfo, SpecSource };

export interface ProcessSpecOptions {
  /** How every document (the root from a URL source and each external `$ref`) is fetched. */
  fetch: Omit<SafeFetchOptions, 'signal'>;
  signal?: AbortSignal;
  /** Most external files one specification may pull in (default 500). */
  maxFiles?: number;
  /** Cap on the sum of all files' sizes (default 50 MiB; each response is also capped by `fetch.maxBytes`). */
  maxTotalBytes?: number;
  /** How many external files are fetched at the same time (default 6). */
  concurrency?: number;
  /** Most problems reported (default 100); `errorCount` keeps the total. */
  maxProblems?: number;
}

export interface ProcessSpecSuccess {
  ok: true;
  /** Every document of the specification, keyed by path relative to the root (other origins: absolute URL). */
  filesystem: Record<string, string>;
  rootPath: string;
  hash: string;
  /** Where the root came from after redirects (URL sources, credentials removed). */
  url: string | undefined;
  info: SpecInfo;
  bytes: number;
  /** Schema deviations that do not stop the specification from being used (see {@link classifyValidationFailure}). */
  warnings: SpecProblem[];
  warningCount: number;
}

export interface ProcessSpecFailure {
  ok: false;
  code: OpenApiErrorCode;
  message: string;
  errors: SpecProblem[];
  /** Number of problems before truncation of `errors`. */
  errorCount: number;
  /** Whether the same run could pass on a retry (timeouts, server errors, network errors). */
  retryable: boolean;
}

export type ProcessSpecResult = ProcessSpecSuccess | ProcessSpecFailure;

const TEXT_EXTENSIONS = /\.(md|markdown|txt|html?)$/i;

/**
 * Fetches (URL source) or takes (text source) an OpenAPI 3.0/3.1 or Swagger 2.0 document in JSON or YAML,
 * follows its external `$ref`s over HTTP(S) only, relative to the document that holds them, validates the
 * whole with swagger-parser, and returns every file for the version's filesystem plus a content hash.
 * `file:` URLs and local paths are never read, for any source. Failures come back as a result with the code
 * stored in `lastProcessErrorCode`: FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR, or SPEC_TOO_COMPLEX for a document
 * nested too deeply or whose YAML aliases expand too far (the time and memory budgets are those of the thread
 * that runs it: `processSpecInPool`).
 */
export async function processSpec(source: SpecSource, options: ProcessSpecOptions): Promise<ProcessSpecResult> {
  try {
    return await run(source, options);
  } catch (err) {
    return toFailure(err, options.maxProblems ?? 100);
  }
}

/** The root document's text and, for a URL source, where it came from after redirects. */
async function readRoot(source: SpecSource, fetchOptions: SafeFetchOptions): Promise<{ rootText: string; rootUrl: string | undefined }> {
  if ('url' in source) {
    const res = await safeFetch(source.url, fetchOptions);
    return { rootText: decodeDocumentText(res.body), rootUrl: res.url };
  }
  if ('text' in source && typeof source.text === 'string') return { rootText: decodeDocumentText(source.text), rootUrl: undefined };
  throw new SpecParseError([{ location: 'source', message: 'source must be { url } or { text }' }]);
}

/** The files of one specification as they are fetched, and the first failure met on the way. */
interface SpecFiles {
  filesystem: Record<string, string>;
  totalBytes: number;
  fileCount: number;
  rootPath: string;
  rootUrl: string | undefined;
  /** The root's URL; a text source has a path-only base. */
  base: string;
  /** The failure that made ref-parser give up, kept in its typed form (ref-parser wraps errors). */
  firstFailure: unknown;
}

function keyOf(f: SpecFiles, url: string): string {
  return /^https?:/i.test(url) ? filesystemKey(f.rootUrl, url) : url === f.base ? f.rootPath : url;
}

/** `file#/pointer` of the place a `$ref` is written, from ref-parser's base URL (which carries the pointer). */
function locate(f: SpecFiles, baseUrl: string | undefined): string {
  if (baseUrl === undefined) return f.rootPath;
  const hashAt = baseUrl.indexOf('#');
  const file = hashAt >= 0 ? baseUrl.slice(0, hashAt) : baseUrl;
  return `${keyOf(f, file)}${hashAt >= 0 ? baseUrl.slice(hashAt) : ''}`;
}

function remember(f: SpecFiles, err: unknown): unknown {
  if (f.firstFailure === undefined) f.firstFailure = err;
  return err;
}

/** Ref-parser's resolver: http(s) references only, within the file count and total size budgets. */
function refResolver(f: SpecFiles, options: ProcessSpecOptions, fetchOptions: SafeFetchOptions) {
  const maxFiles = options.maxFiles ?? 500;
  const maxTotalBytes = options.maxTotalBytes ?? 50 * 1024 * 1024;
  const limit = semaphore(options.concurrency ?? 6);
  return {
    order: 1,
    canRead: true,
    async read(file: FileInfo): Promise<string> {
      const where = locate(f, file.baseUrl);
      const ref = file.reference ?? file.url;
      if (!/^https?:\/\//i.test(file.url)) {
        throw remember(f, new SpecParseError([{ location: where, message: `$ref "${ref}" points to a local file; only http(s) references are resolved` }]));
      }
      if (++f.fileCount > maxFiles) {
        throw remember(f, new SpecParseError([{ location: where, message: `more than ${maxFiles} external files are referenced` }]));
      }
      let text: string;
      try {
        const res = await limit(() => safeFetch(file.url, fetchOptions));
        text = decodeDocumentText(res.body);
      } catch (err) {
        throw remember(f, err);
      }
      f.totalBytes += Buffer.byteLength(text);
      if (f.totalBytes > maxTotalBytes) {
        throw remember(
          f,
          new FetchFailedError('too-large', file.url, `the specification's files add up to more than ${maxTotalBytes} bytes`, {
            data: { maxBytes: maxTotalBytes },
          }),
        );
      }
      let key = keyOf(f, file.url);
      // Another URL with the same relative path (the root fetched as `spec.yaml?v=2`, referenced as `spec.yaml`):
      // keep both, the later one under its absolute URL.
      if (key in f.filesystem) key = stripCredentials(new URL(file.url).toString());
      f.filesystem[key] = text;
      return text;
    },
  };
}

/** Ref-parser's parser: JSON or YAML within our limits; text files as they are. */
function refParser(f: SpecFiles) {
  return {
    order: 1,
    canParse: true,
    allowEmpty: false,
    parse(file: FileInfo & { data: string | Buffer }): unknown {
      const text = decodeDocumentText(file.data);
      const key = keyOf(f, file.url);
      if (TEXT_EXTENSIONS.test(new URL(file.url, 'file:///').pathname)) return text;
      try {
        return parseDocumentText(text, key);
      } catch (err) {
        throw remember(f, err);
      }
    },
  };
}

/** Resolves the external references and validates the whole; returns the warnings (see classifyValidationFailure). */
async function validateSpec(f: SpecFiles, root: Record<string, unknown>, options: ProcessSpecOptions, fetchOptions: SafeFetchOptions): Promise<SpecProblem[]> {
  const swagger = new SwaggerParser();
  let warnings: SpecProblem[] = [];
  try {
    await swagger.validate(
      f.base,
      root as never,
      {
        resolve: { file: false, http: false, folio: refResolver(f, options, fetchOptions), external: true },
        parse: { json: false, yaml: false, text: false, binary: false, folio: refParser(f) },
        // Circular schemas are legal: validate them as they are, never expand them.
        dereference: { circular: 'ignore' },
        mutateInputSchema: true,
        continueOnError: false,
      } as never,
    );
  } catch (err) {
    if (f.firstFailure !== undefined) throw f.firstFailure;
    if (isStackOverflow(err)) throw new SpecTooComplexError('stack', undefined, '#', { cause: err });
    warnings = classifyValidationFailure(err, (source) => {
      const key = source === undefined ? f.rootPath : keyOf(f, source);
      return key === f.rootPath ? '' : key;
    });
  }
  if (f.firstFailure !== undefined) throw f.firstFailure;
  return warnings;
}

async function run(source: SpecSource, options: ProcessSpecOptions): Promise<ProcessSpecSuccess> {
  const fetchOptions: SafeFetchOptions = { ...options.fetch, ...(options.signal ? { signal: options.signal } : {}) };
  const { rootText, rootUrl } = await readRoot(source, fetchOptions);
  const isJson = looksLikeJson(rootText);
  const rootPath = rootUrl !== undefined ? rootPathForUrl(rootUrl, isJson) : defaultRootName(isJson);
  const root = parseDocumentText(rootText, rootPath, { requireObject: true }) as Record<string, unknown>;
  const info = readInfo(root);
  const files: SpecFiles = {
    filesystem: { [rootPath]: rootText },
    totalBytes: Buffer.byteLength(rootText),
    fileCount: 0,
    rootPath,
    rootUrl,
    // A text source has no location: give it a path-only base, so relative refs resolve to local paths,
    // which are refused like any other local reference.
    base: rootUrl ?? `/${rootPath}`,
    firstFailure: undefined,
  };
  const warnings = await validateSpec(files, root, options, fetchOptions);
  const { filesystem } = files;
  return {
    ok: true,
    filesystem,
    rootPath,
    hash: specContentHash(rootPath, filesystem),
    url: rootUrl === undefined ? undefined : stripCredentials(rootUrl),
    info,
    bytes: files.totalBytes,
    warnings: warnings.slice(0, options.maxProblems ?? 100),
    warningCount: warnings.length,
  };
}

function readInfo(root: Record<string, unknown>): SpecInfo {
  const info = (root.info && typeof root.info === 'object' ? root.info : {}) as Record<string, unknown>;
  const specVersion =
    typeof root.openapi === 'string' ? root.openapi : typeof root.swagger === 'string' ? root.swagger : String(root.openapi ?? root.swagger ?? '');
  return {
    specVersion,
    title: typeof info.title === 'string' ? info.title : undefined,
    version: typeof info.version === 'string' ? info.version : undefined,
  };
}

/**
 * Decides what a swagger-parser validation failure means. Published specifications very often deviate
 * from the official JSON schema deep inside (a response without `description`, an `example` in the wrong
 * place): they stay usable, so such problems become warnings and the version is still created. The
 * document is rejected (PARSE_ERROR) when a problem breaks its structure: at the root or directly under it
 * (`info` missing, `paths` not an object…) or anywhere in `info`, an unknown extra key excepted; when swagger-parser refuses it before
 * validation (not an OpenAPI/Swagger document, unsupported version); or when a `$ref` cannot be resolved.
 * Returns the warnings, or throws the SpecParseError.
 */
export function classifyValidationFailure(err: unknown, fileOf: (source: string | undefined) => string = () => ''): SpecProblem[] {
  const problems = problemsFromAjvErrors((err as { details?: unknown } | undefined)?.details);
  if (problems.length > 0) {
    const isFatal = (p: SpecProblem) => isStructuralLocation(p.location) && !p.message.startsWith('must NOT have additional properties');
    const fatal = problems.filter(isFatal);
    if (fatal.length > 0) throw new SpecParseError([...fatal, ...problems.filter((p) => !isFatal(p))], { cause: err });
    return problems;
  }
  // swagger-parser's Swagger 2.0 semantic checks (duplicate operationId, path parameters…) run last.
  const message = err instanceof Error ? err.message : '';
  if (err instanceof SyntaxError && message.startsWith('Validation failed.')) return [{ location: '#', message: message.trim() }];
  throw asParseError(err, fileOf);
}

function isStructuralLocation(location: string): boolean {
  const segments = location
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '');
  return segments.length <= 1 || segments[0] === 'info';
}

/** Errors raised by swagger-parser / ref-parser about the document itself; a broken `$ref` is located where it is written. */
function asParseError(err: unknown, fileOf: (source: string | undefined) => string): SpecParseError {
  if (err instanceof SpecParseError) return err;
  const e = err as { message?: string; source?: string; parentPath?: string } | undefined;
  const message = redactLocalPaths((e?.message ?? String(err)).split('\n')[0]!.trim());
  const location = typeof e?.parentPath === 'string' && e.parentPath.startsWith('#') ? `${fileOf(e.source)}${e.parentPath}` : '#';
  return new SpecParseError([{ location, message }], { cause: err });
}

/** Ref-parser messages may name the server's working directory; keep them free of local paths. */
function redactLocalPaths(message: string): string {
  const cwd = process.cwd();
  return message.split(cwd).join('.');
}

function toFailure(err: unknown, maxProblems: number): ProcessSpecFailure {
  if (!(err instanceof SpecTooComplexError) && !(err instanceof SpecParseError) && isStackOverflow(err))
    err = new SpecTooComplexError('stack', undefined, '#', { cause: err });
  if (err instanceof SpecTooComplexError) {
    return {
      ok: false,
      code: 'SPEC_TOO_COMPLEX',
      message: err.message,
      errors: err.problems.slice(0, maxProblems),
      errorCount: err.problems.length,
      retryable: false,
    };
  }
  if (err instanceof SpecParseError) {
    return {
      ok: false,
      code: 'PARSE_ERROR',
      message: err.message,
      errors: err.problems.slice(0, maxProblems),
      errorCount: err.problems.length,
      retryable: false,
    };
  }
  if (isFetchError(err)) {
    const url = typeof err.data.url === 'string' ? err.data.url : '';
    return {
      ok: false,
      code: err instanceof FetchTimeoutError ? 'FETCH_TIMEOUT' : 'FETCH_ERROR',
      message: err.message,
      errors: [{ location: url, message: err.message }],
      errorCount: 1,
      retryable: err.retryable,
    };
  }
  throw err;
}

function semaphore(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
