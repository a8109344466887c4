import type { Server } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Platform } from '@stoa/core';

/**
 * The origin of each listening server, looked up once: every request's call carries it, and asking the socket for
 * its address is a system call (issue 30). Forgotten when the server closes, so a server that listens again is
 * looked up again.
 */
const listening = new WeakMap<Server, string>();
/** The configured public URL last seen, and its origin (parsed once, not per request). */
let configuredOrigin: { url: string; origin: string } | undefined;

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
  if (configured) {
    if (configuredOrigin?.url !== configured) configuredOrigin = { url: configured, origin: new URL(configured).origin };
    return configuredOrigin.origin;
  }
  const server = req.server.server;
  const known = listening.get(server);
  if (known !== undefined) return known;
  const addr = server.address();
  if (typeof addr !== 'object' || addr === null) return 'http://127.0.0.1';
  // Listening on every interface: the loopback address is the one that is surely this server (as `stoa serve` prints).
  const host = addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  const origin = `http://${host}:${addr.port}`;
  listening.set(server, origin);
  server.once('close', () => listening.delete(server));
  return origin;
}
