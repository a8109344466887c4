import type { Platform } from './platform.js';

/**
 * Each area that keeps derived data in step with changes (search index of file contents, wiki links…)
 * registers its hooks here. Called once by `openPlatform`, so every door — server, CLI local mode, MCP stdio —
 * gets the same behaviour.
 */
export type AreaInstaller = (platform: Platform) => void;

export const areaInstallers: AreaInstaller[] = [];

export function installAreas(platform: Platform): void {
  for (const install of areaInstallers) install(platform);
}
