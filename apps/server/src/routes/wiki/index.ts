import list from './list.js';
import get from './get.js';
import put from './put.js';
import rename from './rename.js';
import move from './move.js';
import del from './delete.js';
import history from './history.js';
import version from './version.js';
import diff from './diff.js';
import search from './search.js';
import importPages from './import.js';

/** The wiki's JSON handlers, one file per operation. */
export const wikiHandlers = [list, get, put, rename, move, del, history, version, diff, search, importPages];
