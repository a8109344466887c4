import type { FastifyRequest } from 'fastify';
import type { Platform } from '@stoa/core';

/**
 * The origin every absolute URL the server writes starts with (issue 27): the configured `STOA_PUBLIC_URL`, else
 * the address this server listens on — never the request's Host header, which the client chooses, so an answer
 * cannot be made to point clients elsewhere (MCP's auth metadata, `WWW-Authenticate`).
 *
 * @example
 * publicOrigin(platform, req) // 'https://stoa.example.org' or 'http://127.0.0.1:8080'
 */
export function publicOrigin(platform: Platform, req: FastifyRequest): string {
  const configured = platform.config.publicUrl;
  if (configured) return new URL(configured).origin;
  const addr = req.server.server.address();
  if (typeof addr !== 'object' || addr === null) return 'http://127.0.0.1';
  // Listening on every interface: the loopback address is the one that is surely this server (as `stoa serve` prints).
  const host = addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return `http://${host}:${addr.port}`;
}
