import { ValidationError } from '../errors.js';
import { newId } from './ids.js';
import { json, toDate } from './sql-helpers.js';
import type { ContentEventInput, ContentEventRecord, ContentEventType, EventStore, JsonObject, Sql } from './types/index.js';

interface EventRow {
  position: string | number;
  id: string;
  organization_id: string;
  type: string;
  stream: string;
  seq: string | number;
  space_id: string | null;
  payload: JsonObject | string;
  created_at: Date | string;
}

export const EVENT_COLUMNS = 'position, id, organization_id, type, stream, seq, space_id, payload, created_at';

export function eventFromRow(r: EventRow): ContentEventRecord {
  return {
    position: Number(r.position),
    id: r.id,
    organizationId: r.organization_id,
    type: r.type as ContentEventType,
    stream: r.stream,
    seq: Number(r.seq),
    spaceId: r.space_id,
    payload: typeof r.payload === 'string' ? (JSON.parse(r.payload) as JsonObject) : r.payload,
    createdAt: toDate(r.created_at),
  };
}

/**
 * Records a content event in `tx` (the transaction that commits the fact): numbers it in its stream (the stream's
 * counter row stays locked until commit, so numbers follow commit order) and writes one pending delivery per active
 * installation of the organization that covers it (all spaces, or the event's space among its selected ones; the
 * same for a site event and the selected sites; an event of neither goes to every installation).
 */
export async function recordEvent(tx: Sql, input: ContentEventInput): Promise<ContentEventRecord> {
  const [counter] = await tx.query<{ last_seq: string | number }>(
    `INSERT INTO content_event_streams (stream, last_seq) VALUES ($1, 1)
     ON CONFLICT (stream) DO UPDATE SET last_seq = content_event_streams.last_seq + 1 RETURNING last_seq`,
    [input.stream],
  );
  const id = `evt_${newId()}`;
  const payload = { ...input.payload, eventId: id, type: input.type };
  const rows = await tx.query<EventRow>(
    `INSERT INTO content_events (id, organization_id, type, stream, seq, space_id, payload) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING ${EVENT_COLUMNS}`,
    [id, input.organizationId, input.type, input.stream, Number(counter!.last_seq), input.spaceId ?? null, json(payload)],
  );
  const event = eventFromRow(rows[0]!);
  await tx.query(
    `INSERT INTO integration_deliveries (id, installation_id, event_position)
     SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), i.id, $2 FROM integration_installations i
     WHERE i.organization_id = $1 AND i.status = 'active'
       AND ($3::text IS NULL OR i.space_selection = 'all'
            OR EXISTS (SELECT 1 FROM integration_installation_spaces s WHERE s.installation_id = i.id AND s.space_id = $3))
       AND ($4::text IS NULL OR i.site_selection = 'all'
            OR EXISTS (SELECT 1 FROM integration_installation_sites t WHERE t.installation_id = i.id AND t.site_id = $4))`,
    [input.organizationId, event.position, input.spaceId ?? null, input.siteId ?? null],
  );
  return event;
}

function cursor(position: number): string {
  return Buffer.from(JSON.stringify(['evt', position])).toString('base64url');
}

function afterPosition(page: string | undefined): number {
  if (!page) return 0;
  try {
    const [k, p] = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as [unknown, unknown];
    if (k === 'evt' && Number.isInteger(p)) return p as number;
  } catch {
    // fall through
  }
  throw new ValidationError('page is not a valid cursor for this list');
}

export function createEventStore(sql: Sql): EventStore {
  return {
    async list(organizationId, options) {
      const params: Array<string | number> = [organizationId, afterPosition(options.page), options.limit + 1];
      if (options.stream !== undefined) params.push(options.stream);
      const rows = await sql.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM content_events WHERE organization_id = $1 AND position > $2 ${options.stream !== undefined ? 'AND stream = $4' : ''}
         ORDER BY position LIMIT $3`,
        params,
      );
      const items = rows.slice(0, options.limit).map(eventFromRow);
      return rows.length > options.limit ? { items, next: { page: cursor(items[items.length - 1]!.position) } } : { items };
    },
    async get(eventId) {
      const rows = await sql.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM content_events WHERE id = $1`, [eventId]);
      return rows[0] ? eventFromRow(rows[0]) : null;
    },
  };
}
