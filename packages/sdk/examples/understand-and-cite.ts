/**
 * A document runtime that registers a file for understanding, pages through its chunks, searches them and
 * re-checks its evidence before showing it (seed 003's file understanding, R6). Pages, hits and excerpts are
 * capped by the host: it pages until `hasMore` is false rather than asking for everything at once.
 *
 *   STOA_URL=http://127.0.0.1:8080 STOA_TOKEN=… node --import tsx packages/sdk/examples/understand-and-cite.ts [query]
 */
import { StoaClient, WorkspaceFiles } from '@stoa/sdk';

const query = process.argv[2] ?? 'давление';
const client = new StoaClient({ url: process.env.STOA_URL!, token: process.env.STOA_TOKEN });
const files = await WorkspaceFiles.open(client, process.env.STOA_PROJECT ?? 'default');

// A specification with Russian and Chinese sections, long enough to make several chunks.
const section = (n: number) =>
  `## Раздел ${n}\n\n${'Рабочее давление проверяют при приёмке. '.repeat(n === 3 ? 20 : 1)}${'工作压力验收标准。'.repeat(10)}\n${'Прочий текст раздела. '.repeat(60)}\n`;
const text = `# Спецификация\n\n${[1, 2, 3, 4, 5, 6].map(section).join('\n')}`;
const { reference } = await files.uploadBuffer(Buffer.from(text), { filePath: 'specs/specification.md' });

const understood = await files.understandFile({ filePath: reference.filePath, parseMode: 'auto' });
const status = await files.getUnderstandingStatus(reference); // a portable reference works as well as a path

// Page through the chunks; ask for more than the host gives, and follow hasMore.
let pages = 0;
let chunks = 0;
let pageSize = 0;
for (let page = 1, more = true; more; page++) {
  const p = await files.listUnderstandingChunks({ filePath: reference.filePath, page, pageSize: 500 });
  pages++;
  chunks += p.chunks.length;
  pageSize = p.pageSize;
  more = p.hasMore;
}

const hits = await files.searchUnderstandingChunks({ query, file: reference, limit: 3, contentLength: 200 });
// Evidence is re-checked before it is shown or acted on.
const checks = await files.validateUnderstandingReferences(hits.map((h) => ({ fileAssetId: h.fileAssetId, chunkId: h.chunkId })));
console.log(
  JSON.stringify({
    fileAssetId: understood.fileAssetId,
    status: status.status,
    vectorIndexStatus: status.vectorIndexStatus,
    chunkCount: status.chunkCount,
    pages,
    chunks,
    pageSize,
    hits: hits.map((h) => ({ path: h.path, version: h.version, span: h.span, content: h.content })),
    checks: checks.map((c) => c.status),
  }),
);
