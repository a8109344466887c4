import all from './all.js';
import reindex from './reindex.js';

/** The one search's JSON handlers, one file per operation. */
export const searchHandlers = [all, reindex];
