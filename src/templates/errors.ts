/** Template failures: one class per failure, with a stable `code` and whether a retry can help. */
import { FolioError, NotFoundError, ValidationError } from '../errors.js';

/** No template with this id in the catalog of the organization (the API answers 404). */
export class TemplateNotFoundError extends NotFoundError {
  constructor(id: string) {
    super('template', id);
  }
}

/** A template folder whose manifest or content cannot be used (an operator's folder, never a client's input). */
export class TemplateInvalidError extends FolioError {
  constructor(dir: string, why: string) {
    super('TEMPLATE_INVALID', `template ${dir}: ${why}`, { data: { dir } });
  }
}

/** `params.contentRefs` names a placeholder the template does not have, or a file the space does not hold (400). */
export class TemplateContentRefError extends ValidationError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super(message, { field: 'params.contentRefs', ...data });
  }
}
