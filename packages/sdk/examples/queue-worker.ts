/**
 * A queue worker that survives restarts. `enqueue TEXT` stores an input file and prints its portable reference
 * (what a job queue would keep); `work REFERENCE_JSON`, in another process, later, resolves the reference — to the
 * file's current path if it was renamed or moved since — and reads it.
 *
 *   STOA_URL=http://127.0.0.1:8080 STOA_TOKEN=… node --import tsx packages/sdk/examples/queue-worker.ts enqueue "hello"
 *   STOA_URL=… STOA_TOKEN=… node --import tsx packages/sdk/examples/queue-worker.ts work '{"source":"platform.workspace.files",…}'
 */
import { StoaClient, WorkspaceFiles, type PortableReference } from '@stoa/sdk';

const client = new StoaClient({ url: process.env.STOA_URL!, token: process.env.STOA_TOKEN });
const files = await WorkspaceFiles.open(client, process.env.STOA_PROJECT ?? 'default');
const [step, arg = ''] = process.argv.slice(2);

if (step === 'enqueue') {
  const { reference } = await files.uploadBuffer(Buffer.from(arg), { filePath: `inbox/job-${Date.now()}.txt` });
  console.log(JSON.stringify(reference));
} else if (step === 'work') {
  const job = JSON.parse(arg) as PortableReference;
  const { buffer, mimeType, reference } = await files.readRuntimeBuffer(job);
  console.log(JSON.stringify({ path: reference.filePath, mimeType, text: buffer.toString('utf8') }));
} else {
  console.error('usage: queue-worker.ts enqueue TEXT | work REFERENCE_JSON');
  process.exitCode = 2;
}
