import type { DoorOperation, Operation, PublicDoorOperation } from './operation.js';
import { fileOperations } from './file-ops.js';
import { trashOperations } from './trash-ops.js';
import { projectOperations } from './project-ops.js';
import { agentOperations } from './agent-ops.js';
import { memoryOperations } from './memory-ops.js';
import { wikiOperations } from './wiki-ops.js';
import { searchOperations } from './search-ops.js';
import { adminOperations } from './admin-ops.js';
import { oauthOperations, oauthServerOperations } from './oauth-ops.js';
import { webdavOperations } from './webdav-ops.js';
import { signInOperations } from './sign-in-ops.js';
import { personalOperations } from './personal-ops.js';
import { shareOperations } from './share-ops.js';

/**
 * Every operation of Stoa, defined once. The HTTP server mounts a route for each, the CLI's local mode and the
 * SDK's in-process callers dispatch through it, and the tests walk it to prove every door and every policy.
 * An area adds its operations here (one line).
 */
export const operations: readonly Operation[] = [
  ...projectOperations,
  ...fileOperations,
  ...trashOperations,
  ...agentOperations,
  ...memoryOperations,
  ...wikiOperations,
  ...searchOperations,
  ...adminOperations,
  ...oauthOperations,
  ...signInOperations,
  ...personalOperations,
  ...shareOperations,
];

const byId = new Map<string, Operation | DoorOperation | PublicDoorOperation>(
  [...operations, ...webdavOperations, ...oauthServerOperations].map((o) => [o.id, o]),
);

/**
 * The operation with this ID (the route ID, or a door's own operation such as `webdav.lock`), or undefined. The
 * agent tools are entries of their own (tool-ops.ts).
 */
export function findOperation(id: string): Operation | DoorOperation | PublicDoorOperation | undefined {
  return byId.get(id);
}

export { webdavOperations, oauthServerOperations };
