import { loadConfig } from '../../config/config.js';
import { FolioError } from '../../errors.js';
import { createLogger } from '../../log.js';
import type { Store, TokenRecord } from '../../store/index.js';
import { parseTokenLifetime } from '../../store/token-lifetime.js';
import { parseArgs, stringOption, type ParsedArgs } from '../args.js';
import { openConfiguredStore } from '../open-store.js';
import { cliConfig } from '../data-dir.js';

const USAGE = [
  'usage: folio token create --org <id> [--user <userId|e-mail>] [--label <label>] [--read-only] [--expires-in <30d|12h|…>]',
  '       folio token list --org <id> [--json]',
  '       folio token revoke <tokenId> --org <id>',
  '',
].join('\n');

function status(t: TokenRecord, now: Date): string {
  if (t.revokedAt) return 'revoked';
  if (t.expiresAt && t.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

const iso = (d: Date | null) => (d ? d.toISOString() : '-');

async function createToken(store: Store, org: string, args: ParsedArgs, expiresAt: Date | null): Promise<number> {
  const userRef = stringOption(args, 'user');
  const user = userRef === undefined ? undefined : userRef.includes('@') ? await store.users.byEmail(userRef) : await store.users.get(userRef);
  if (userRef !== undefined && (!user || !(await store.members.get(org, user.id)))) {
    process.stderr.write(`folio: ${userRef} is not a member of organization ${org}\n`);
    return 1;
  }
  const { token, record } = await store.tokens.create(org, {
    label: stringOption(args, 'label'),
    scope: args.options['read-only'] === true ? 'read' : 'write',
    expiresAt,
    ...(user ? { userId: user.id } : {}),
  });
  process.stdout.write(`${token}\n`);
  process.stderr.write(
    `Token ${record.id} (${record.userId ? `personal, user ${record.userId}, ` : 'service, '}${record.scope}${record.expiresAt ? `, expires ${record.expiresAt.toISOString()}` : ''}) is shown once; store it now.\n`,
  );
  return 0;
}

async function listTokens(store: Store, org: string, json: boolean): Promise<number> {
  const now = new Date();
  const tokens = await store.tokens.list(org);
  if (json) {
    process.stdout.write(
      JSON.stringify(
        tokens.map((t) => ({
          id: t.id,
          label: t.label,
          scope: t.scope,
          user: t.userId,
          status: status(t, now),
          createdAt: iso(t.createdAt),
          expiresAt: t.expiresAt?.toISOString() ?? null,
          revokedAt: t.revokedAt?.toISOString() ?? null,
          lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
        })),
      ) + '\n',
    );
    return 0;
  }
  process.stdout.write(['id', 'label', 'scope', 'user', 'status', 'created', 'expires', 'revoked', 'last used'].join('\t') + '\n');
  for (const t of tokens) {
    process.stdout.write(
      [t.id, t.label ?? '-', t.scope, t.userId ?? '-', status(t, now), iso(t.createdAt), iso(t.expiresAt), iso(t.revokedAt), iso(t.lastUsedAt)].join('\t') +
        '\n',
    );
  }
  return 0;
}

async function revokeToken(store: Store, org: string, tokenId: string): Promise<number> {
  try {
    const revoked = await store.tokens.revoke(org, tokenId);
    process.stdout.write(`revoked token ${revoked.id} (${revoked.label ?? 'no label'}) of organization ${org}\n`);
    return 0;
  } catch (err) {
    if (err instanceof FolioError && err.code === 'NOT_FOUND') {
      process.stderr.write(`folio: organization ${org} has no token ${tokenId}\n`);
      return 1;
    }
    throw err;
  }
}

/**
 * `folio token create|list|revoke`: API tokens of an organization. `create` prints the token once (only its
 * hash is stored): with `--user`, a personal token of that member (by user id or e-mail), which acts as them;
 * without, the organization's service token. `list` shows id, label, scope, user, dates and status, never a
 * secret; `revoke` refuses the token from the next request on (workflows it started carry the organization and
 * the acting user, never the token, and go on).
 */
export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['read-only', 'json']);
  const [sub, tokenId] = args.positionals;
  const org = stringOption(args, 'org');
  if (!org || (sub !== 'create' && sub !== 'list' && sub !== 'revoke') || (sub === 'revoke' && !tokenId)) {
    process.stderr.write(USAGE);
    return 2;
  }
  let expiresAt: Date | null = null;
  if (sub === 'create' && args.options['expires-in'] !== undefined) {
    try {
      expiresAt = new Date(Date.now() + parseTokenLifetime(args.options['expires-in']));
    } catch (err) {
      process.stderr.write(`folio: --expires-in: ${(err as Error).message}\n`);
      return 2;
    }
  }
  const config = await cliConfig(loadConfig(), (line) => process.stderr.write(line));
  const store = await openConfiguredStore(config, createLogger('cli', { level: 'warn', pretty: config.logPretty }));
  try {
    if (!(await store.orgs.get(org))) {
      process.stderr.write(`folio: organization ${org} does not exist (create it with \`folio org create ${org} --title …\`)\n`);
      return 1;
    }
    if (sub === 'create') return await createToken(store, org, args, expiresAt);
    if (sub === 'list') return await listTokens(store, org, args.options.json === true);
    return await revokeToken(store, org, tokenId!);
  } finally {
    await store.close();
  }
}
