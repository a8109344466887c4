/**
 * A runtime that keeps its notes in a volume beyond projects: your own files (`users`), an agent's (`xperts`), a
 * private agent's (`user-xperts`), a knowledge base or a skill package. The server resolves the scope from the
 * token — the program never builds it — and creates the volume on first use.
 *
 *   STOA_URL=… STOA_TOKEN=… node --import tsx packages/sdk/examples/volume-notes.ts users
 *   STOA_URL=… STOA_TOKEN=… node --import tsx packages/sdk/examples/volume-notes.ts knowledges default Handbook
 *   STOA_URL=… STOA_TOKEN=<agent token> node --import tsx packages/sdk/examples/volume-notes.ts xperts
 */
import { StoaClient, WorkspaceFiles, type VolumeRequest } from '@stoa/sdk';

const [catalog = 'users', a, b] = process.argv.slice(2);
const request: VolumeRequest =
  catalog === 'knowledges' || catalog === 'skills'
    ? { catalog, project: a ?? 'default', name: b ?? 'Notes' }
    : catalog === 'xperts' || catalog === 'user-xperts'
      ? { catalog, agent: a }
      : { catalog: 'users' };

const client = new StoaClient({ url: process.env.STOA_URL!, token: process.env.STOA_TOKEN });
// One runtime per job and token: never cached, never shared.
const files = await WorkspaceFiles.open(client, request);
const { reference } = await files.writeRuntimeBuffer({
  buffer: Buffer.from(`note of ${new Date().toISOString().slice(0, 10)}\n`),
  originalName: 'today.md',
  folder: 'notes',
  metadata: { source: 'volume-notes', catalog: files.scope.catalog },
});
// A portable reference: keep it anywhere (a queue, a database), read it later in another process.
const back = await files.readRuntimeBuffer(JSON.parse(JSON.stringify(reference)));
console.log(JSON.stringify({ scope: files.scope, reference, metadata: back.metadata, text: back.buffer.toString('utf8') }));
