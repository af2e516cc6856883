import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Stepper: `{% stepper %}` / `{% step %}` … `{% endstep %}` / `{% endstepper %}`. */
export const stepperPlugin: GitbookConstructPlugin = {
  name: 'stepper',
  tags: [
    { name: 'stepper', end: 'required', plugin: 'stepper' },
    { name: 'step', end: 'required', plugin: 'stepper' },
  ],
};
