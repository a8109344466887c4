/**
 * A sandbox tool that writes its output into the workspace and hands back a reference and a link: the reference
 * for the agent runtime to keep, the expiring URL for whoever should download the result without a token.
 *
 *   STOA_URL=http://127.0.0.1:8080 STOA_TOKEN=… node --import tsx packages/sdk/examples/sandbox-tool.ts
 */
import { StoaClient, WorkspaceFiles } from '@stoa/sdk';

const client = new StoaClient({ url: process.env.STOA_URL!, token: process.env.STOA_TOKEN });
const files = await WorkspaceFiles.open(client, process.env.STOA_PROJECT ?? 'default');

// The tool's work: a small CSV summary.
const rows = [
  ['city', 'visits'],
  ['Москва', '12'],
  ['北京', '7'],
];
const csv = rows.map((r) => r.join(',')).join('\n') + '\n';

const { reference } = await files.writeRuntimeBuffer({ buffer: Buffer.from(csv), originalName: 'summary.csv', folder: '/workspace/outputs' });
const { url, expiresAt } = await files.resolveFile(reference, { expiresIn: 300 });
console.log(JSON.stringify({ reference, url, expiresAt }));
