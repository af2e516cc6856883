/**
 * Who may do what: the caller's role in an organization and on its content, computed the way GitBook documents its
 * cascading permissions (docs/people.md):
 *
 * - the organization role of a member applies to any content that inherits (`defaultLevel: "inherit"`);
 * - a collection or a space may stop inheriting: its `defaultLevel` is then what every member (not a guest) gets there
 *   (null: nothing by default);
 * - grants of a role on a collection or a space to a user or to a team they are in apply to that content and, where
 *   it inherits, to everything below it;
 * - at each level the most permissive of what is inherited and what is granted wins; organization admins administer
 *   all content; guests (organization role null) get only what is granted.
 *
 * Service tokens (the organization's installation) act with their scope's role on everything of their organization:
 * `write` is admin, `read` is read. A read-scoped personal token is capped at read.
 */
import type { ContentGrant, ContentRef, MemberRecord, SpaceDefaultLevel, SpaceRecord, Store, TokenScope } from '../store/index.js';
import { highest, lowest, type MemberRole } from './roles.js';

export type Principal =
  | { kind: 'service'; organizationId: string; tokenId: string; scope: TokenScope }
  /** A user: `organizationId` is the one their token was issued for (SSO sessions too); they act in every organization they are a member of. */
  | { kind: 'user'; userId: string; organizationId: string; tokenId: string | null; scope: TokenScope };

/** A collection as the permission chain sees it (collections come from their own store; see `CollectionSource`). */
export interface CollectionNode {
  id: string;
  organizationId: string;
  parent: string | null;
  defaultLevel: SpaceDefaultLevel | null;
}

/** Where the chain finds collections. Until collections exist, a space's parent is an unknown collection that inherits. */
export interface CollectionSource {
  get(id: string): Promise<CollectionNode | null>;
}

export const noCollections: CollectionSource = { get: async () => null };

/** The store's collections as the permission chain reads them. */
export function storeCollections(store: Pick<Store, 'collections'>): CollectionSource {
  return {
    async get(id) {
      const c = await store.collections.get(id);
      return c ? { id: c.id, organizationId: c.organizationId, parent: c.parent, defaultLevel: c.defaultLevel } : null;
    },
  };
}

/** The caller's membership of an organization: its role (null: a guest). null membership: no access there at all. */
export interface Membership {
  role: MemberRole | null;
}

type AccessStore = Pick<Store, 'members' | 'teams' | 'permissions' | 'collections'>;

/** One level of a chain: the content, the default level it sets (or `inherit`), and the grants on it. */
interface Level {
  ref: ContentRef;
  defaultLevel: SpaceDefaultLevel | null;
}

/** Most collections are a few levels deep; a longer (or cyclic) parent chain stops here. */
const MAX_DEPTH = 16;

/**
 * The caller's roles, for one request: memberships and team ids are read once per organization and kept.
 */
export class AccessResolver {
  private readonly memberships = new Map<string, Promise<MemberRecord | null>>();
  private readonly teamIds = new Map<string, Promise<string[]>>();

  private readonly collections: CollectionSource;

  /** `collections`: where the chain finds collections (default: the store's). */
  constructor(
    private readonly store: AccessStore,
    readonly principal: Principal,
    collections?: CollectionSource,
  ) {
    this.collections = collections ?? storeCollections(store);
  }

  /** The user the caller acts for (null for a service token). */
  get userId(): string | null {
    return this.principal.kind === 'user' ? this.principal.userId : null;
  }

  private cap(role: MemberRole | null): MemberRole | null {
    return this.principal.scope === 'read' ? lowest(role, 'read') : role;
  }

  /** The caller's membership of the organization (uncapped), or null when it has none (or a disabled one). */
  async membership(organizationId: string): Promise<Membership | null> {
    const p = this.principal;
    if (p.kind === 'service') return p.organizationId === organizationId ? { role: p.scope === 'write' ? 'admin' : 'read' } : null;
    let found = this.memberships.get(organizationId);
    if (!found) {
      found = this.store.members.get(organizationId, p.userId);
      this.memberships.set(organizationId, found);
    }
    const member = await found;
    return member && !member.disabled ? { role: member.role } : null;
  }

  /** The caller's organization role with the token's cap; undefined when not a member. */
  async organizationRole(organizationId: string, options: { uncapped?: boolean } = {}): Promise<MemberRole | null | undefined> {
    const m = await this.membership(organizationId);
    if (!m) return undefined;
    return options.uncapped ? m.role : this.cap(m.role);
  }

  private teamsOf(organizationId: string, userId: string): Promise<string[]> {
    let found = this.teamIds.get(organizationId);
    if (!found) {
      found = this.store.teams.ofUser(organizationId, userId).then((teams) => teams.map((t) => t.team.id));
      this.teamIds.set(organizationId, found);
    }
    return found;
  }

  /** The caller's role on one space (null: no access, the space is invisible to them). */
  async spaceRole(space: SpaceRecord, options: { uncapped?: boolean } = {}): Promise<MemberRole | null> {
    return (await this.spaceRoles([space], options)).get(space.id) ?? null;
  }

  /** The caller's role on each space (one query for the grants of all of them). */
  async spaceRoles(spaces: readonly SpaceRecord[], options: { uncapped?: boolean } = {}): Promise<Map<string, MemberRole | null>> {
    const out = new Map<string, MemberRole | null>();
    const finish = (role: MemberRole | null) => (options.uncapped ? role : this.cap(role));
    const p = this.principal;
    const byOrg = new Map<string, SpaceRecord[]>();
    for (const s of spaces) byOrg.set(s.organizationId, [...(byOrg.get(s.organizationId) ?? []), s]);
    for (const [organizationId, list] of byOrg) {
      const m = await this.membership(organizationId);
      if (!m || p.kind === 'service' || m.role === 'admin') {
        for (const s of list) out.set(s.id, m ? finish(m.role) : null);
        continue;
      }
      const chains = await Promise.all(list.map((s) => this.chainOf(s)));
      const refs = chains.flat().map((l) => l.ref);
      const grants = await this.store.permissions.forPrincipals(refs, p.userId, await this.teamsOf(organizationId, p.userId));
      list.forEach((s, i) => out.set(s.id, finish(evaluate(chains[i]!, grants, m.role))));
    }
    return out;
  }

  /** The caller's role on a collection (null: no access, the collection is invisible to them), as for a space inside it. */
  async collectionRole(collection: CollectionNode, options: { uncapped?: boolean } = {}): Promise<MemberRole | null> {
    const finish = (role: MemberRole | null) => (options.uncapped ? role : this.cap(role));
    const p = this.principal;
    const m = await this.membership(collection.organizationId);
    if (!m || p.kind === 'service' || m.role === 'admin') return m ? finish(m.role) : null;
    const chain = await this.levelsFrom({ ref: { kind: 'collection', id: collection.id }, defaultLevel: collection.defaultLevel }, collection);
    const grants = await this.store.permissions.forPrincipals(
      chain.map((l) => l.ref),
      p.userId,
      await this.teamsOf(collection.organizationId, p.userId),
    );
    return finish(evaluate(chain, grants, m.role));
  }

  /** The space and the collections above it, the space first. */
  private chainOf(space: SpaceRecord): Promise<Level[]> {
    return this.levelsFrom({ ref: { kind: 'space', id: space.id }, defaultLevel: space.defaultLevel }, space);
  }

  /** `first` and the collections above it (from `of.parent` up), `first` first. */
  private async levelsFrom(first: Level, of: { organizationId: string; parent: string | null }): Promise<Level[]> {
    const levels: Level[] = [first];
    let parent = of.parent;
    const seen = new Set<string>([first.ref.id]);
    while (parent && !seen.has(parent) && levels.length < MAX_DEPTH) {
      seen.add(parent);
      const node = await this.collections.get(parent);
      if (node && node.organizationId !== of.organizationId) break;
      levels.push({ ref: { kind: 'collection', id: parent }, defaultLevel: node ? node.defaultLevel : 'inherit' });
      parent = node?.parent ?? null;
    }
    return levels;
  }
}

/**
 * The role a chain gives (levels bottom-up: the content first, its outermost collection last), from the member's
 * organization role (null for a guest) down: at each level, the most permissive of the grants there and of what the
 * level inherits (or, when it does not inherit, of its own default level for members).
 */
export function evaluate(levels: readonly Level[], grants: readonly ContentGrant[], organizationRole: MemberRole | null): MemberRole | null {
  let role: MemberRole | null = organizationRole;
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    const granted = grants.filter((g) => g.content.kind === level.ref.kind && g.content.id === level.ref.id).map((g) => g.role);
    const inherited = level.defaultLevel === 'inherit' ? role : organizationRole === null ? null : level.defaultLevel;
    role = highest(inherited, ...granted);
  }
  return role;
}
