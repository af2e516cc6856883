import type { SpecProblem } from './errors.js';

interface AjvErrorLike {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Turns the Ajv errors that swagger-parser attaches to a schema-validation failure (`err.details`) into
 * problems: `#/json/pointer` and a message, with the offending property or allowed values spelled out.
 * Duplicates (Ajv repeats errors for each `oneOf` branch) are dropped.
 */
export function problemsFromAjvErrors(details: unknown): SpecProblem[] {
  if (!Array.isArray(details)) return [];
  const seen = new Set<string>();
  const problems: SpecProblem[] = [];
  for (const raw of details as AjvErrorLike[]) {
    if (!raw || typeof raw !== 'object') continue;
    const location = `#${raw.instancePath || ''}`;
    let message = raw.message ?? 'invalid';
    const p = raw.params ?? {};
    if (typeof p.additionalProperty === 'string') message += ` (${p.additionalProperty})`;
    else if (typeof p.missingProperty === 'string' && !message.includes(p.missingProperty)) message += ` (${p.missingProperty})`;
    else if (Array.isArray(p.allowedValues)) message += ` (${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')})`;
    const key = `${location}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ location, message });
  }
  return problems;
}
