/**
 * The folders of Folio from the bottom up (issue 32: the folder-level graph has no loop). A folder may import the
 * folders of the layers below its own, never one of its own layer or above: an upward import would close a loop (the order is the folder graph's
 * longest path from the bottom; a folder that needs one of its own layer moves up a layer).
 * `src/<name>` is one folder (its sub-folders included), except `src/temporal/`, whose client side, worker wiring
 * and contract are folders of their own, and a sub-folder listed here itself (`src/translate/run`: a pipeline's run,
 * which orchestrates its folder's parts with the revision builder and the parse pool, sits above its folder). A new
 * folder is placed here, or `folder-has-a-layer` fails.
 */
const LAYERS = [
  [
    'src/abort-relay.ts',
    'src/errors.ts',
    'src/ids.ts',
    'src/project-root.ts',
    'src/redact.ts',
    'src/refresh-interval.ts',
    'src/system-packages.ts',
    'src/supervisor',
    'src/temporal/contract',
    'src/url-policy',
  ],
  ['src/format', 'src/log.ts', 'src/net'],
  ['src/config', 'src/document', 'src/git', 'src/metrics', 'src/store'],
  [
    'src/bootstrap.ts',
    'src/openapi',
    'src/parse-cache',
    'src/parse-pool',
    'src/people',
    'src/revision',
    'src/s3-server',
    'src/search',
    'src/temporal/*.ts',
    'src/temporal/client',
    'src/translate',
    'src/vault',
    'src/webimport',
  ],
  ['src/change-requests', 'src/comments', 'src/fileimport', 'src/publish', 'src/webhooks'],
  ['src/parse-threads', 'src/pdf', 'src/templates'],
  ['src/gitsync', 'src/translate/run', 'src/webimport/run'],
  ['activities', 'src/api'],
  ['src/temporal/worker', 'workflows'],
  ['src/cli'],
];
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const folderPath = (f) => (f === 'src/temporal/*.ts' ? '^src/temporal/[^/]+[.]ts$' : f.endsWith('.ts') ? `^${escapeRe(f)}$` : `^${escapeRe(f)}/`);
/** The folders of LAYERS inside `folder` (a run sub-folder): they have their own layer. */
const nestedIn = (folder) => LAYERS.flat().filter((f) => f !== folder && !f.endsWith('.ts') && f.startsWith(`${folder}/`));
const layerRules = LAYERS.flatMap((layer, i) =>
  layer
    .map((folder) => ({ folder, above: [...layer.filter((f) => f !== folder), ...LAYERS.slice(i + 1).flat()] }))
    .filter(({ above }) => above.length > 0)
    .map(({ folder, above }) => ({
      name: 'layers',
      severity: 'error',
      comment: `${folder} (layer ${i}) imports only the folders of the layers below it (.dependency-cruiser.cjs LAYERS)`,
      from: { path: folderPath(folder), ...(nestedIn(folder).length ? { pathNot: nestedIn(folder).map(folderPath) } : {}) },
      to: { path: above.map(folderPath) },
    })),
);
const folderHasALayer = {
  name: 'folder-has-a-layer',
  severity: 'error',
  comment: 'Every folder of src/, activities/ and workflows/ has its place in LAYERS (.dependency-cruiser.cjs).',
  from: { path: '^(src|activities|workflows)/', pathNot: LAYERS.flat().map(folderPath) },
  to: {},
};

/**
 * Folio's layer rules (`npm run lint`):
 * - no import cycles, between files, and between folders (LAYERS above: each folder imports only layers below it);
 * - `src/format` (pure GitBook format conversion) imports nothing of the store, git, Temporal or pg;
 * - `src/` outside `src/temporal/` imports no Temporal package, nothing of `activities/` or `workflows/`
 *   (`src/temporal/worker/` wires the activities into the worker);
 * - `workflows/` (deterministic, bundled) imports only the contract, `@temporalio/workflow` (and
 *   `@temporalio/common`, its failure types), other workflows, and activity *types*;
 * - the contract `src/temporal/contract/` imports nothing but itself;
 * - SQL stays in the store: outside `src/store/`, nothing imports the store's connection (`raw-sql`, the
 *   adapters, the SQL helpers, the migration runner) or a PostgreSQL driver; the rest of Folio uses `Store`'s members.
 * - outside `src/format/`, the format package is imported only through its entry point `src/format/index.ts`.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    ...layerRules,
    folderHasALayer,
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import cycles make load order fragile and layers meaningless.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'format-is-pure',
      severity: 'error',
      comment: 'src/format converts the GitBook format; it knows nothing of the store, git or Temporal.',
      from: { path: '^src/format/' },
      to: { path: ['^src/store/', '^src/git/', '^src/temporal/', '^node_modules/(@temporalio/|isomorphic-git/|pg/|pg-)', '^(activities|workflows)/'] },
    },
    {
      name: 'format-single-entry',
      severity: 'error',
      comment: 'The format package has one entry point: outside src/format/, import src/format/index.ts only.',
      from: { pathNot: '^src/format/' },
      to: { path: '^src/format/', pathNot: '^src/format/index[.]ts$' },
    },
    {
      name: 'temporal-only-in-src-temporal',
      severity: 'error',
      comment: 'Outside src/temporal/, src/ goes through the start module and the contract, never a Temporal package.',
      from: { path: '^src/', pathNot: '^src/temporal/' },
      to: { path: '^node_modules/@temporalio/' },
    },
    {
      name: 'src-not-into-activities-or-workflows',
      severity: 'error',
      comment: 'src/ is below activities/ and workflows/; only the worker wiring (src/temporal/worker/) reaches activities.',
      from: { path: '^src/', pathNot: '^src/temporal/worker/' },
      to: { path: '^(activities|workflows)/' },
    },
    {
      name: 'contract-imports-nothing',
      severity: 'error',
      comment: 'The contract is shared by the workflow sandbox and Node code: it imports only itself.',
      from: { path: '^src/temporal/contract/' },
      to: { pathNot: '^src/temporal/contract/' },
    },
    {
      name: 'sql-stays-in-the-store',
      severity: 'error',
      comment:
        'Only src/store/ talks SQL: everything else goes through the typed members of Store (src/store/types.ts). Test helpers (reached from bench/) may set up databases.',
      from: { pathNot: ['^src/store/', '^test/'] },
      to: { path: ['^src/store/(raw-sql|sql-pg|sql-pglite|sql-helpers|migrate)[.]ts$', '^node_modules/(pg|pg-[^/]+|@electric-sql/[^/]+)/'] },
    },
    {
      name: 'workflows-only-contract-and-sdk',
      severity: 'error',
      comment: 'Workflow code is deterministic and bundled: the contract, the workflow SDK, other workflows, activity types.',
      from: { path: '^workflows/' },
      to: {
        pathNot: ['^workflows/', '^src/temporal/contract/', '^node_modules/@temporalio/(workflow|common)/', '^activities/'],
      },
    },
    {
      name: 'workflows-activities-types-only',
      severity: 'error',
      comment: 'Workflows import activities as types only (proxyActivities<Activities>).',
      from: { path: '^workflows/' },
      to: { path: '^activities/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|data|[.]tools)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
