/**
 * Setup file of every project: parse-pool threads started by this test file load the compiled thread of an
 * up-to-date build (the global setup checks dist/) instead of compiling Folio's TypeScript in each thread.
 */
import { inject } from 'vitest';
import { useCompiledThread } from '../../src/parse-pool/pool.js';

const entry = inject('compiledParseThread');
if (entry) useCompiledThread(new URL(entry));
