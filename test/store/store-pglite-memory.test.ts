import { openStore } from '../../src/store/index.js';
import { defineStoreSuite } from './store-suite.js';

defineStoreSuite('store on PGlite (memory://)', { open: () => openStore({ dataDir: 'memory://' }) });
