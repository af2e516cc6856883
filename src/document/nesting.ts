/** Which block types the official schema allows inside each container (`DocumentBlock*.nodes`). */
const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];
const TOP_LEVEL = [
  ...ESSENTIALS,
  ...['blockquote', 'hint', 'prompt', 'images', 'file', 'drawing', 'embed', 'code', 'math', 'expandable', 'tabs', 'table'],
  ...['swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref', 'integration', 'reusable-content'],
  ...['stepper', 'if', 'columns', 'updates'],
];
const IN_STEP = [...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'prompt', 'blockquote', 'math', 'integration'];

const allowed: Record<string, Set<string>> = {
  document: new Set(TOP_LEVEL),
  if: new Set(TOP_LEVEL),
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  hint: new Set([...ESSENTIALS, 'embed', 'integration', 'table']),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  'tabs-item': new Set(IN_STEP),
  'stepper-step': new Set([...IN_STEP, 'expandable']),
  update: new Set([...IN_STEP, 'tabs', 'expandable']),
  column: new Set([...IN_STEP, 'table', 'expandable', 'stepper']),
  'expandable-body': new Set([...ESSENTIALS, 'file', 'images', 'code', 'table', 'hint', 'prompt', 'blockquote', 'reusable-content', 'integration']),
  'table-cell': new Set(['paragraph']),
};

/** Whether a block of `type` may be a child of `parent` ('document' for the top level). */
export function allowedIn(parent: string, type: string): boolean {
  return allowed[parent]?.has(type) ?? false;
}
