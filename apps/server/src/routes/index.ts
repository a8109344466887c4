import type { AnyHandler } from '../http/handler.js';
import { memoryHandlers } from './memory/index.js';
import list from './files/list.js';
import folder from './files/folder.js';
import tree from './files/tree.js';
import find from './files/find.js';
import stat from './files/stat.js';
import move from './files/move.js';
import del from './files/delete.js';
import usage from './files/usage.js';
import versions from './files/versions.js';
import restore from './files/restore.js';
import startUpload from './files/start-upload.js';
import finishUpload from './files/finish-upload.js';
import abortUpload from './files/abort-upload.js';
import listMembers from './projects/list-members.js';
import addMember from './projects/add-member.js';
import removeMember from './projects/remove-member.js';
import createToken from './projects/create-token.js';
import revokeToken from './projects/revoke-token.js';
import listTokens from './projects/list-tokens.js';
import createInvitation from './projects/create-invitation.js';
import audit from './projects/audit.js';
import listProjects from './projects/list-projects.js';
import createProject from './projects/create-project.js';
import me from './projects/me.js';
import { agentHandlers } from './agents/index.js';
import { wikiHandlers } from './wiki/index.js';
import { searchHandlers } from './search/index.js';
import { docsHandlers } from './docs/index.js';
import doctor from './admin/doctor.js';

/**
 * Every JSON handler, by route id. The server mounts them; the CLI's local mode calls them in-process.
 * Areas append their handlers here.
 */
export const jsonHandlers: AnyHandler[] = [
  ...wikiHandlers, ...searchHandlers,
  ...memoryHandlers,
  ...agentHandlers,
  ...docsHandlers,
  me, listProjects, createProject, listMembers, addMember, removeMember, createToken, revokeToken, listTokens, createInvitation, audit,
  list, folder, tree, find, stat, move, del, usage, versions, restore, startUpload, finishUpload, abortUpload,
  doctor,
];

export const handlersById: Map<string, AnyHandler> = new Map(jsonHandlers.map((h) => [h.route.id, h]));
