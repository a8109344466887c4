import type { FastifyInstance } from 'fastify';

/** How long a closing server lets the requests in flight finish before it cuts their connections. */
const CLOSE_GRACE_MS = 10_000;

/**
 * Bounds how long closing the server waits. Closing stops accepting connections and ends the idle ones, then waits
 * for every connection still serving a request; one that never ends (a client that stops reading or sending
 * midway) would keep `stoa serve` from stopping on SIGTERM, and kept a test's server from closing for ever. After
 * `graceMs` the remaining connections are cut: what they were sending was not acknowledged, so nothing
 * acknowledged is lost.
 *
 * @example
 * boundClose(app); // in buildApp
 */
export function boundClose(app: FastifyInstance, graceMs = CLOSE_GRACE_MS): void {
  app.addHook('preClose', (done) => {
    const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
    timer.unref();
    app.server.once('close', () => clearTimeout(timer));
    done();
  });
}
