import type { AnyHandler } from '../../http/handler.js';
import createFolder from './create.js';
import moveFolder from './move.js';
import deleteFolder from './delete.js';
import statFolder from './stat.js';

/** Folders as real things (F9, F10, F13 as amended): create, move and delete a whole folder. */
export const folderHandlers: AnyHandler[] = [statFolder, createFolder, moveFolder, deleteFolder];
