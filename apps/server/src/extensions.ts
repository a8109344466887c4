import type { FastifyInstance } from 'fastify';
import type { Platform } from '@stoa/core';
import { mountDav } from './dav/mount-dav.js';
import { mountMcp } from './mcp/index.js';

/**
 * Areas that serve more than JSON routes (MCP at /mcp, WebDAV at /dav, live updates) register a mount function
 * here; `buildApp` calls each once.
 */
export type ServerExtension = (app: FastifyInstance, platform: Platform) => Promise<void> | void;

export const serverExtensions: ServerExtension[] = [mountDav, mountMcp];
