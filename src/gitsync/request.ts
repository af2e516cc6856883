/**
 * Validation and normalisation of `POST /spaces/{id}/git/import|export` bodies. Pure: the credentials are
 * split out of the URL here and never stored in the normalised request.
 */
import { UrlInvalidError } from '../net/errors.js';
import { splitUrlCredentials, type UrlCredentials } from '../net/url-credentials.js';
import type { GitDirection, GitSyncRequest } from '../temporal/contract/index.js';

export type GitCredentialsInput = UrlCredentials;

/**
 * A validated request body: the queued request's fields (`GitSyncRequest`) that come from the caller, with the
 * credentials split out of the URL (sealed in the vault before anything is queued) and `timestamp` optional.
 */
export type ParsedGitRequest = Pick<
  GitSyncRequest,
  'direction' | 'url' | 'ref' | 'force' | 'standalone' | 'commitMessage' | 'repoCacheID' | 'repoTreeURL' | 'repoCommitURL' | 'projectDirectory' | 'gitInfo'
> & {
  credentials?: GitCredentialsInput;
  /** ISO; undefined when the caller gave none. */
  timestamp?: string;
};

export class GitRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitRequestError';
  }
}

const BRANCH_REF = /^refs\/heads\/(?!\/)(?!.*\/\/)(?!.*\.\.)(?!.*@\{)(?!.*\/$)(?!.*\.lock(\/|$))[^\x00-\x20\x7f~^:?*[\\]+$/;

function optionalString(body: Record<string, unknown>, key: string, max = 2048): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new GitRequestError(`${key} must be a string`);
  if (v.length > max) throw new GitRequestError(`${key} is too long (max ${max})`);
  return v;
}

function optionalBoolean(body: Record<string, unknown>, key: string): boolean {
  const v = body[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new GitRequestError(`${key} must be a boolean`);
  return v;
}

/** `docs/`, `./docs`, `/docs/` → `docs`; `''`, `/`, `.` → `''`. Rejects `..` and absolute escapes. */
export function normalizeProjectDirectory(raw: string | undefined): string {
  if (!raw) return '';
  const trimmed = raw
    .trim()
    .replace(/\\/g, '/')
    .replace(/^\.?\/+/, '')
    .replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return '';
  const parts = trimmed.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) throw new GitRequestError('repoProjectDirectory must stay inside the repository');
  return parts.join('/');
}

/** Splits `https://user:pass@host/repo.git` with the one splitter; its refusal is a GitRequestError (400). */
function splitUrl(raw: string): { url: string; credentials?: GitCredentialsInput } {
  try {
    return splitUrlCredentials(raw);
  } catch (err) {
    if (err instanceof UrlInvalidError) throw new GitRequestError(err.message);
    throw err;
  }
}

export function parseGitRequest(direction: GitDirection, input: unknown): ParsedGitRequest {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new GitRequestError('the body must be a JSON object');
  const body = input as Record<string, unknown>;
  const rawUrl = optionalString(body, 'url', 4096);
  if (!rawUrl) throw new GitRequestError('url is required');
  const { url, credentials } = splitUrl(rawUrl);
  const ref = optionalString(body, 'ref', 1024);
  if (!ref) throw new GitRequestError('ref is required');
  if (!BRANCH_REF.test(ref)) throw new GitRequestError('ref must be a branch ref of the form refs/heads/<branch>');
  let timestamp: string | undefined;
  const rawTs = optionalString(body, 'timestamp', 64);
  if (rawTs !== undefined) {
    const ms = Date.parse(rawTs);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(rawTs) || Number.isNaN(ms)) throw new GitRequestError('timestamp must be an ISO 8601 date-time');
    timestamp = new Date(ms).toISOString();
  }
  const commitMessage = optionalString(body, 'commitMessage', 65536);
  if (direction === 'export' && (commitMessage === undefined || commitMessage.trim() === '')) throw new GitRequestError('commitMessage is required');
  const gitInfoRaw = body.gitInfo;
  let gitInfo: ParsedGitRequest['gitInfo'];
  if (gitInfoRaw !== undefined && gitInfoRaw !== null) {
    if (typeof gitInfoRaw !== 'object' || Array.isArray(gitInfoRaw)) throw new GitRequestError('gitInfo must be an object');
    const gi = gitInfoRaw as Record<string, unknown>;
    const provider = optionalString(gi, 'provider', 32);
    if (provider !== undefined && provider !== 'github' && provider !== 'gitlab') throw new GitRequestError('gitInfo.provider must be github or gitlab');
    const giUrl = optionalString(gi, 'url');
    gitInfo = { ...(provider ? { provider } : {}), ...(giUrl ? { url: giUrl } : {}) };
  }
  const repoCacheID = optionalString(body, 'repoCacheID', 256);
  const repoTreeURL = optionalString(body, 'repoTreeURL');
  const repoCommitURL = optionalString(body, 'repoCommitURL');
  return {
    direction,
    url,
    ...(credentials ? { credentials } : {}),
    ref,
    ...(timestamp ? { timestamp } : {}),
    force: optionalBoolean(body, 'force'),
    standalone: optionalBoolean(body, 'standalone'),
    ...(direction === 'export' && commitMessage ? { commitMessage } : {}),
    ...(repoCacheID ? { repoCacheID } : {}),
    ...(repoTreeURL ? { repoTreeURL } : {}),
    ...(repoCommitURL ? { repoCommitURL } : {}),
    projectDirectory: normalizeProjectDirectory(optionalString(body, 'repoProjectDirectory', 1024)),
    ...(gitInfo ? { gitInfo } : {}),
  };
}
