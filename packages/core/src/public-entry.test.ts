import { describe, expect, it } from 'vitest';
import * as core from '@stoa/core';

/** What @stoa/core offers the doors (issue 26): the platform, the context, the operation table and its runner. */
describe('the public entry of @stoa/core', () => {
  it('exports only what the doors need, and no internal that would go around the runner', () => {
    expect(Object.keys(core).sort()).toEqual(
      [
        'DEFAULT_LOCK_SECONDS',
        'LOCK_NULL_METADATA',
        'jsonDepth',
        'xmlDepth',
        'StoaError',
        'agentPrincipal',
        'authenticate',
        'bootstrap',
        'checkStores',
        'callOperation',
        'contextFor',
        'createLoginCode',
        'embedPending',
        'findOperation',
        'heldBytes',
        'housekeepingOf',
        'isStoaError',
        'loadConfig',
        'localAdminPrincipal',
        'lockCovers',
        'normalizePath',
        'openPlatform',
        'operations',
        'processPendingAssets',
        'refusalByRole',
        'refusalOfDbError',
        'runGlobalOperation',
        'runOperation',
        'shareAuthFailures',
        'startHousekeeping',
        'toolOperations',
      ].sort(),
    );
    for (const internal of ['commitVersion', 'inTx', 'putFile', 'deleteFile', 'lockPath', 'callTool', 'recordAudit']) expect(core).not.toHaveProperty(internal);
  });

  it('keeps the internals out of reach by the package exports map', async () => {
    // Built at run time, so the bundler's static analysis does not refuse the test itself.
    for (const deep of ['src/internal.js', 'src/files/commit-version.js', 'internal']) {
      const spec = ['@stoa/core', deep].join('/');
      await expect(import(/* @vite-ignore */ spec), spec).rejects.toThrow(/not exported|Cannot find|Missing/);
    }
  });
});
