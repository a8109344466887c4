/**
 * The public entry of @stoa/core: what the doors (apps/server, apps/cli) may reach. Everything they do to a
 * project goes through the operation table (callOperation, runOperation); the rest of the core — commitVersion,
 * inTx, the file functions — is not exported here, so no door can go around the runner (issue 26). Tests reach
 * the internals through `@stoa/core/testing`.
 */

// Opening the platform and keeping it healthy (`stoa serve`, the CLI's local mode).
export { openPlatform } from './open-platform.js';
export { loadConfig, type StoaConfig, type EmbeddingsConfig } from './config.js';
export type { Platform, Ctx } from './platform.js';
export { bootstrap } from './projects/bootstrap.js';
export { startHousekeeping } from './files/sweeper.js';
export { housekeepingOf } from './config.js';
export { embedPending } from './embeddings/embed-pending.js';
export { processPendingAssets } from './understanding/index.js';
// The one-time login link `stoa serve` prints for the installation's administrator.
export { createLoginCode } from './projects/login.js';
// Several servers on one database share the sign-in throttle.
export { shareAuthFailures } from './projects/auth-throttle.js';

// Who calls: the context step of the runner, for the doors that authenticate a token first.
export { contextFor, localAdminPrincipal, type ContextOptions } from './context.js';
export { authenticate, type Principal } from './projects/tokens.js';
export { agentPrincipal } from './operations/principals.js';

// The operation table and its runner: the one way in.
export {
  callOperation,
  runOperation,
  runGlobalOperation,
  refusalByRole,
  type DoorCall,
  operations,
  findOperation,
  toolOperations,
  type Operation,
  type DoorOperation,
  type PublicDoorOperation,
  type ToolOperation,
  type OperationTraits,
} from './operations/index.js';

// Errors: one registry; a database refusal (a NUL in text…) is mapped to its code at every door.
export { StoaError, isStoaError, type ErrorCode } from '@stoa/contract';
export { refusalOfDbError } from './db-guard.js';
// Before a server listens: the database answers and the blob store takes a probe object (issue 32).
export { checkStores } from './store-check.js';

// Values the doors' own protocols need: path rules, WebDAV lock lifetimes and coverage (pure functions).
export { normalizePath } from './paths.js';
export { DEFAULT_LOCK_SECONDS, lockCovers, type WriteLock, type LockTarget } from './files/locks.js';
export { LOCK_NULL_METADATA } from './files/lock-null.js';
// Nesting of a body, counted before it is parsed (issue 27): the HTTP door's JSON parser and WebDAV's XML.
export { jsonDepth, xmlDepth } from './understanding/nesting.js';

// What the OAuth authorization server for /mcp answers (its steps are public door operations in the table; the MCP
// SDK's handlers in apps/server/src/mcp/oauth.ts speak the protocol, decision 0018).
export type { OAuthClientRecord, OAuthTokenSet } from './oauth/index.js';

// Types of what operations answer, for the doors that stream or shape them.
export type { FileInfo } from './files/file-info.js';
export type { FolderEntry } from './files/list-files.js';
export type { OpenedFile, RedirectedFile } from './files/read-file.js';
// A download's bytes when the store holds them in memory (small blobs in the database): written in one piece (issue 30).
export { heldBytes } from '@stoa/blob';
export type { PutFileResult } from './files/put-file.js';
export type { Archive } from './files/archive.js';
export type { Preview } from './files/preview.js';
export type { DeadProp, DeadPropChange } from './files/dead-props.js';
export type { LegacyDigests } from './files/legacy-digests.js';
export type { AnyToolDef } from './tools/all-tools.js';
