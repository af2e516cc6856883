import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Columns: `{% columns %}` / `{% column width="50%" %}` … `{% endcolumn %}` / `{% endcolumns %}`. */
export const columnsPlugin: GitbookConstructPlugin = {
  name: 'columns',
  tags: [
    { name: 'columns', end: 'required', plugin: 'columns' },
    { name: 'column', end: 'required', attributeOrder: ['width', 'valign'], plugin: 'columns' },
  ],
};
