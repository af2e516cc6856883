/** Entry point of one parse-pool thread of Folio: serves the operations of `./operations.ts` (src/parse-pool/serve.ts). */
import { serveOperations } from '../parse-pool/serve.js';
import { parseOperations, preloadOperations } from './operations.js';

await serveOperations(parseOperations, preloadOperations);
