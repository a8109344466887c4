import type { AnyHandler } from '../../http/handler.js';
import understand from './understand.js';
import status from './status.js';
import retry from './retry.js';
import chunks from './chunks.js';
import search from './search.js';
import validate from './validate.js';

/** Handlers of file understanding (R6). */
export const docsHandlers: AnyHandler[] = [understand, status, retry, chunks, search, validate];
