import { openStore } from '../../src/store/index.js';
import { defineRepositorySuite } from './repository-suite.js';
import { pgliteTemplate } from '../helpers/store.js';

defineRepositorySuite('OpenAPI repository on PGlite (memory)', () => openStore({ dataDir: 'memory://', pgliteTemplate: pgliteTemplate() }));
