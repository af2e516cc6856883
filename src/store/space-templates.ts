/**
 * Spaces marked as templates of their organization (`space_templates`, migration 008). Marking is idempotent;
 * the space must belong to the organization given.
 */
import { NotFoundError, ValidationError } from '../errors.js';
import { sqlState, toDate } from './sql-helpers.js';
import type { Sql, SpaceTemplateInput, SpaceTemplateRecord, SpaceTemplateStore } from './types/index.js';

interface Row {
  space_id: string;
  organization_id: string;
  subtitle: string | null;
  features: unknown;
  created_at: unknown;
  updated_at: unknown;
}

const fromRow = (row: Row): SpaceTemplateRecord => ({
  spaceId: row.space_id,
  organizationId: row.organization_id,
  subtitle: row.subtitle,
  features: Array.isArray(row.features) ? (row.features as unknown[]).filter((f): f is string => typeof f === 'string') : [],
  createdAt: toDate(row.created_at),
  updatedAt: toDate(row.updated_at),
});

function checkInput(input: SpaceTemplateInput): void {
  if (input.subtitle !== undefined && input.subtitle !== null && (typeof input.subtitle !== 'string' || input.subtitle.length > 300))
    throw new ValidationError('template subtitle must be a string of at most 300 characters', { field: 'template.subtitle' });
  if (
    input.features !== undefined &&
    (!Array.isArray(input.features) || input.features.length > 20 || input.features.some((f) => typeof f !== 'string' || f.length > 100))
  )
    throw new ValidationError('template features must be at most 20 strings of at most 100 characters', { field: 'template.features' });
}

export function createSpaceTemplateStore(sql: Sql): SpaceTemplateStore {
  return {
    async mark(organizationId, spaceId, input = {}) {
      checkInput(input);
      try {
        const rows = await sql.query<Row>(
          `INSERT INTO space_templates (space_id, organization_id, subtitle, features)
           SELECT s.id, s.organization_id, $3, $4::jsonb FROM spaces s WHERE s.id = $1 AND s.organization_id = $2 AND s.deleted_at IS NULL
           ON CONFLICT (space_id) DO UPDATE SET
             subtitle = COALESCE($3, space_templates.subtitle),
             features = CASE WHEN $5 THEN $4::jsonb ELSE space_templates.features END,
             updated_at = now()
           RETURNING *`,
          [spaceId, organizationId, input.subtitle ?? null, JSON.stringify(input.features ?? []), input.features !== undefined],
        );
        if (!rows[0]) throw new NotFoundError('space', spaceId);
        return fromRow(rows[0]);
      } catch (err) {
        if (sqlState(err) === '23503') throw new NotFoundError('space', spaceId);
        throw err;
      }
    },
    async unmark(organizationId, spaceId) {
      const rows = await sql.query('DELETE FROM space_templates WHERE space_id = $1 AND organization_id = $2 RETURNING space_id', [spaceId, organizationId]);
      return rows.length > 0;
    },
    async get(organizationId, spaceId) {
      const rows = await sql.query<Row>('SELECT * FROM space_templates WHERE space_id = $1 AND organization_id = $2', [spaceId, organizationId]);
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async list(organizationId) {
      const rows = await sql.query<Row>(
        `SELECT t.* FROM space_templates t JOIN spaces s ON s.id = t.space_id
         WHERE t.organization_id = $1 AND s.deleted_at IS NULL ORDER BY t.created_at, t.space_id`,
        [organizationId],
      );
      return rows.map(fromRow);
    },
  };
}
