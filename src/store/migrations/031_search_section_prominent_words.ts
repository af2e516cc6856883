import type { Migration } from '../types/index.js';

/**
 * The prominent words of each section, for ranking a frequent word's matches without reading them all: `dense`
 * holds a section's lexemes worth at least 3 units (a position in the page title counts 5, in a heading or the
 * page description 2.5, in the text 1, as `ts_rank_cd`'s weights 1.0, 0.5, 0.2 do), and, suffixed with " 2",
 * those worth at least 10. Under its own GIN index: a search finds the sections where its words are prominent
 * from the index alone, ranks those pages first, and runs `ts_rank_cd` over the best pages only.
 */
export const migration: Migration = {
  id: '031_search_section_prominent_words',
  sql: `
CREATE FUNCTION search_prominent(doc tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_to_tsvector(array_agg(x)), ''::tsvector)
  FROM (
    SELECT u.lexeme, (SELECT sum(CASE w WHEN 'A' THEN 5 WHEN 'B' THEN 2.5 WHEN 'C' THEN 1 ELSE 0.25 END) FROM unnest(u.weights) AS w) AS units
    FROM unnest(doc) AS u
  ) s, unnest(CASE WHEN s.units >= 10 THEN ARRAY[s.lexeme, s.lexeme || ' 2'] ELSE ARRAY[s.lexeme] END) AS x
  WHERE s.units >= 3
$$;
ALTER TABLE search_sections ADD COLUMN dense tsvector NOT NULL DEFAULT ''::tsvector;
UPDATE search_sections SET dense = search_prominent(document);
CREATE INDEX search_sections_prominent ON search_sections USING GIN (dense);
`,
};
