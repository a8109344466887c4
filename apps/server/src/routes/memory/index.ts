import type { AnyHandler } from '../../http/handler.js';
import list from './list.js';
import get from './get.js';
import set from './set.js';
import append from './append.js';
import history from './history.js';
import show from './show.js';
import search from './search.js';
import bundle from './bundle.js';
import prepare from '../turn/prepare.js';
import commit from '../turn/commit.js';

/** The memory and hosted-agent turn handlers (§5), registered in routes/index.ts with one spread. */
export const memoryHandlers: AnyHandler[] = [list, get, set, append, history, show, search, bundle, prepare, commit];
