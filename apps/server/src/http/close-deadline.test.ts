import { describe, expect, it } from 'vitest';
import { connect, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { bootstrap, createTestPlatform, newToken } from '@stoa/core/testing';
import { buildApp } from '../app.js';

describe('closing the server', () => {
  it('cuts, after its grace, a connection whose request never ends, instead of waiting for ever', async () => {
    const t = await createTestPlatform('sqlite');
    try {
      const token = newToken();
      t.platform.config.adminToken = token;
      await bootstrap(t.platform);
      const app = await buildApp({ platform: t.platform, webRoot: null, closeGraceMs: 300 });
      // A route that answers only when its client is gone: a stream that a client keeps open.
      app.get('/test/held', (req, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
        reply.raw.write(': open\n\n');
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write('GET /test/held HTTP/1.1\r\nHost: x\r\n\r\n');
      await once(socket, 'data');
      socket.on('error', () => undefined);
      socket.resume();
      const cut = once(socket, 'close');
      await app.close();
      await cut;
      expect(socket.destroyed).toBe(true);
    } finally {
      await t.cleanup();
    }
  });
});
