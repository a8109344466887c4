import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import type { Tokenizer } from '@huggingface/tokenizers';
import type { OnnxEmbeddingsConfig } from '../config.js';
import { EmbeddingError, type EmbeddingProvider } from './provider.js';

/** Where a Hugging Face style folder keeps its graph: transformers.js exports first, then a bare export. */
const MODEL_FILES = ['onnx/model.onnx', 'model.onnx'];
/** The files whose sizes and times say whether a folder that failed to load has changed since. */
const WATCHED = [...MODEL_FILES, 'tokenizer.json', 'tokenizer_config.json', 'config.json', '1_Pooling/config.json'];
/** Tokens read per text when neither the tokenizer nor the model says (most encoders read 512). */
const DEFAULT_MAX_TOKENS = 512;

interface LoadedModel {
  name: string;
  session: InferenceSession;
  ort: typeof import('onnxruntime-node');
  tokenizer: Tokenizer;
  /** The graph's inputs and the integer type each takes. */
  inputs: Array<{ name: string; type: 'int64' | 'int32' }>;
  output: string;
  pooling: 'mean' | 'cls';
  maxTokens: number;
  padId: number;
  unkId: number | undefined;
  specialIds: Set<number>;
}

/**
 * The provider of a local model folder (`STOA_EMBEDDINGS_MODEL_PATH`, R8): a Hugging Face style folder with
 * `tokenizer.json` (+ `tokenizer_config.json`, `config.json`) and `onnx/model.onnx` or `model.onnx`, run in this
 * process by ONNX Runtime (`onnxruntime-node`, loaded by dynamic import on first use, so a server without the
 * variable never loads it) with the tokenizer of `@huggingface/tokenizers`. Neither has code that downloads:
 * nothing leaves the machine. Vectors are the mean of the last hidden states over the real tokens (the first
 * token's where `1_Pooling/config.json` says CLS), normalised.
 *
 * The model's name is `onnx:` + the config's `_name_or_path` (or the folder's name) + a hash of the graph, the
 * tokenizer and the pooling, so another model — or the same folder with other weights — is embedded again. A
 * folder that is missing or broken makes `model()` throw an {@link EmbeddingError} with the reason (relative
 * to the folder: no host paths); it is tried again once one of its files changes.
 *
 * @example
 * const p = localOnnxEmbeddings({ kind: 'onnx', modelPath: '/models/multilingual-e5-small', batchSize: 16 });
 * const [v] = await p.embed(['refund policy']);
 */
export function localOnnxEmbeddings(config: OnnxEmbeddingsConfig): EmbeddingProvider {
  let loading: Promise<LoadedModel> | null = null;
  let failure: { error: EmbeddingError; signature: string } | null = null;

  const scrub = (message: string) => scrubPaths(message, config.modelPath);

  async function loaded(): Promise<LoadedModel> {
    if (failure) {
      // Retried only when the folder changed: loading a broken model every pass would burn the CPU for nothing.
      if ((await folderSignature(config.modelPath)) === failure.signature) throw failure.error;
      failure = null;
    }
    loading ??= load(config, scrub).catch(async (e: unknown) => {
      const error = e instanceof EmbeddingError ? e : new EmbeddingError(scrub(String((e as Error)?.message ?? e)), false);
      failure = { error, signature: await folderSignature(config.modelPath) };
      loading = null;
      throw error;
    });
    return loading;
  }

  return {
    batchSize: config.batchSize,
    model: async () => (await loaded()).name,
    async embed(texts) {
      if (texts.length === 0) return [];
      const m = await loaded();
      try {
        return await infer(m, texts);
      } catch (e) {
        if (e instanceof EmbeddingError) throw e;
        // The model ran for the probe at load, so what fails now is these texts.
        throw new EmbeddingError(`the model could not embed this text: ${scrub((e as Error).message)}`, false);
      }
    },
    async close() {
      const pending = loading;
      loading = null;
      if (pending) await (await pending.catch(() => null))?.session.release();
    },
  };
}

async function load(config: OnnxEmbeddingsConfig, scrub: (m: string) => string): Promise<LoadedModel> {
  const folder = config.modelPath;
  const fail = (message: string) => new EmbeddingError(message, false);
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw fail('the model folder (STOA_EMBEDDINGS_MODEL_PATH) does not exist or is not a folder');
  let modelFile: string | undefined;
  for (const f of MODEL_FILES) if ((await stat(join(folder, f)).catch(() => null))?.isFile()) modelFile ??= f;
  if (!modelFile) throw fail(`the model folder has neither ${MODEL_FILES.join(' nor ')}`);
  const tokenizerText = await readFile(join(folder, 'tokenizer.json'), 'utf8').catch(() => null);
  if (tokenizerText === null) throw fail('the model folder has no tokenizer.json');
  const tokenizerJson = parseJson(tokenizerText, 'tokenizer.json');
  const tokenizerConfig = await optionalJson(folder, 'tokenizer_config.json');
  const modelConfig = await optionalJson(folder, 'config.json');
  const poolingConfig = await optionalJson(folder, '1_Pooling/config.json');
  const pooling = poolingConfig.pooling_mode_cls_token === true && poolingConfig.pooling_mode_mean_tokens !== true ? 'cls' : 'mean';

  const hash = createHash('sha256');
  await new Promise<void>((resolve, reject) => {
    createReadStream(join(folder, modelFile))
      .on('data', (b) => hash.update(b))
      .on('end', resolve)
      .on('error', reject);
  });
  hash.update('\0').update(tokenizerText).update('\0').update(pooling);

  let tokenizer: Tokenizer;
  try {
    const { Tokenizer } = await import('@huggingface/tokenizers');
    tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  } catch (e) {
    throw fail(`tokenizer.json could not be read as a tokenizer: ${scrub((e as Error).message)}`);
  }
  let ort: typeof import('onnxruntime-node');
  try {
    ort = await import('onnxruntime-node');
  } catch (e) {
    const missing = (e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND';
    throw fail(
      missing ? 'onnxruntime-node is not installed (npm install onnxruntime-node)' : `ONNX Runtime could not be loaded: ${scrub((e as Error).message)}`,
    );
  }
  let session: InferenceSession;
  try {
    session = await ort.InferenceSession.create(join(folder, modelFile), {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
      ...(config.threads ? { intraOpNumThreads: config.threads, interOpNumThreads: 1 } : {}),
    });
  } catch (e) {
    throw fail(`${modelFile} could not be loaded by ONNX Runtime: ${scrub((e as Error).message)}`);
  }
  try {
    const inputs = session.inputMetadata.map((m) => ({ name: m.name, type: m.isTensor && m.type === 'int32' ? ('int32' as const) : ('int64' as const) }));
    const known = ['input_ids', 'attention_mask', 'token_type_ids'];
    const unknown = inputs.filter((i) => !known.includes(i.name)).map((i) => i.name);
    if (unknown.length > 0 || !inputs.some((i) => i.name === 'input_ids'))
      throw fail(`${modelFile} takes inputs ${inputs.map((i) => i.name).join(', ')}; an embedding model takes input_ids (and attention_mask, token_type_ids)`);
    const output = ['last_hidden_state', 'token_embeddings', 'sentence_embedding'].find((n) => session.outputNames.includes(n)) ?? session.outputNames[0];
    if (!output) throw fail(`${modelFile} has no output`);
    const special = [...tokenizer.get_added_tokens_decoder()].filter(([, t]) => t.special).map(([id]) => id);
    const idOf = (token: unknown) => (typeof token === 'string' ? tokenizer.token_to_id(token) : undefined);
    const padding = (tokenizerJson as { padding?: { pad_id?: unknown } | null }).padding;
    const m: LoadedModel = {
      name: modelName(modelConfig, folder, hash.digest('hex')),
      session,
      ort,
      tokenizer,
      inputs,
      output,
      pooling,
      maxTokens: maxTokensOf(tokenizerConfig, modelConfig),
      padId: idOf(tokenizerConfig.pad_token) ?? (typeof padding?.pad_id === 'number' ? padding.pad_id : 0),
      unkId: idOf(tokenizerConfig.unk_token) ?? idOf((tokenizerJson as { model?: { unk_token?: unknown } }).model?.unk_token),
      specialIds: new Set(special),
    };
    // One text through the whole path now, so a model that cannot embed fails here, with its reason, and
    // not text by text later.
    try {
      await infer(m, ['Stoa']);
    } catch (e) {
      throw e instanceof EmbeddingError ? e : fail(`${modelFile} could not embed a test text: ${scrub((e as Error).message)}`);
    }
    return m;
  } catch (e) {
    await session.release();
    throw e;
  }
}

/** Tokenises, pads to the batch's longest text, runs the graph and pools: one unit vector per text. */
async function infer(m: LoadedModel, texts: string[]): Promise<Float32Array[]> {
  const rows = texts.map((t) => tokenIds(m, t));
  const seq = Math.max(1, ...rows.map((r) => r.length));
  const n = texts.length;
  const ids = new Array<number>(n * seq).fill(m.padId);
  const mask = new Array<number>(n * seq).fill(0);
  for (const [i, r] of rows.entries())
    for (const [j, id] of r.entries()) {
      ids[i * seq + j] = id;
      mask[i * seq + j] = 1;
    }
  const tensor = (values: number[], type: 'int64' | 'int32'): Tensor =>
    type === 'int64' ? new m.ort.Tensor('int64', BigInt64Array.from(values, BigInt), [n, seq]) : new m.ort.Tensor('int32', Int32Array.from(values), [n, seq]);
  const feeds: Record<string, Tensor> = {};
  for (const input of m.inputs)
    feeds[input.name] = tensor(input.name === 'input_ids' ? ids : input.name === 'attention_mask' ? mask : new Array<number>(n * seq).fill(0), input.type);
  const out = (await m.session.run(feeds, [m.output]))[m.output];
  if (!out || out.type !== 'float32') throw new EmbeddingError(`the model's output ${m.output} is ${out?.type ?? 'missing'}; Stoa reads float32`, false);
  const data = out.data as Float32Array;
  const dims = out.dims;
  const vectors: Float32Array[] = [];
  if (dims.length === 2 && dims[0] === n) {
    const d = dims[1]!;
    for (let i = 0; i < n; i++) vectors.push(unit(data.slice(i * d, (i + 1) * d)));
  } else if (dims.length === 3 && dims[0] === n && dims[1] === seq) {
    const d = dims[2]!;
    for (let i = 0; i < n; i++) {
      const v = new Float32Array(d);
      const tokens = m.pooling === 'cls' ? 1 : rows[i]!.length;
      for (let j = 0; j < tokens; j++) {
        const at = (i * seq + j) * d;
        for (let k = 0; k < d; k++) v[k]! += data[at + k]!;
      }
      vectors.push(unit(v));
    }
  } else {
    throw new EmbeddingError(`the model's output ${m.output} has shape [${dims.join(', ')}]; Stoa reads [batch, tokens, dims] or [batch, dims]`, false);
  }
  for (const v of vectors) if (!v.every(Number.isFinite)) throw new EmbeddingError('the model produced a vector with non-numbers', false);
  return vectors;
}

/** A text's token ids, at most `maxTokens`, keeping the closing special token (e.g. [SEP]) when cut. */
function tokenIds(m: LoadedModel, text: string): number[] {
  // A model that reads few tokens needs only the start of the text: tokenising a prefix (cut between words)
  // gives the same first tokens when it yields a few more than are read, and costs a fraction of the whole.
  const prefixChars = m.maxTokens * 8;
  if (text.length > prefixChars * 1.5) {
    const cut = text.lastIndexOf(' ', prefixChars);
    const ids = encodeIds(m, text.slice(0, cut > prefixChars / 2 ? cut : prefixChars));
    if (ids.length >= m.maxTokens + 4) return truncated(m, ids);
  }
  return truncated(m, encodeIds(m, text));
}

function encodeIds(m: LoadedModel, text: string): number[] {
  const ids: number[] = [];
  for (const id of m.tokenizer.encode(text).ids as Array<number | undefined>) {
    // A token outside the vocabulary (some tokenizers answer undefined) reads as the unknown token.
    const known = id ?? m.unkId;
    if (known !== undefined) ids.push(known);
  }
  return ids;
}

function truncated(m: LoadedModel, ids: number[]): number[] {
  if (ids.length <= m.maxTokens) return ids;
  const last = ids[ids.length - 1]!;
  return m.specialIds.has(last) ? [...ids.slice(0, m.maxTokens - 1), last] : ids.slice(0, m.maxTokens);
}

function unit(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/** `onnx:NAME@HASH`: NAME from the config's `_name_or_path` (a path gives its last part) or the folder's name. */
function modelName(modelConfig: Record<string, unknown>, folder: string, hash: string): string {
  const named = typeof modelConfig._name_or_path === 'string' ? modelConfig._name_or_path.trim() : '';
  const isPath = /^([./~]|[A-Za-z]:[\\/])/.test(named) || named.includes('\\');
  const name = (named && !isPath ? named : basename(named.replace(/(?<![\\/])[\\/]+$/, '')) || basename(folder)).slice(0, 100);
  return `onnx:${name}@${hash.slice(0, 16)}`;
}

function maxTokensOf(tokenizerConfig: Record<string, unknown>, modelConfig: Record<string, unknown>): number {
  const sane = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x > 2 && x < 1_000_000 ? x : undefined);
  // Transformers writes a huge model_max_length when the tokenizer has no limit of its own.
  const fromTokenizer = sane(tokenizerConfig.model_max_length);
  const fromModel = sane(modelConfig.max_position_embeddings);
  return Math.min(fromTokenizer ?? DEFAULT_MAX_TOKENS, fromModel ?? DEFAULT_MAX_TOKENS);
}

function parseJson(text: string, file: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw new EmbeddingError(`${file} in the model folder is not a JSON object`, false);
}

async function optionalJson(folder: string, file: string): Promise<Record<string, unknown>> {
  const text = await readFile(join(folder, file), 'utf8').catch(() => null);
  return text === null ? {} : parseJson(text, file);
}

/** Sizes and modification times of the files a load reads: a failed folder is tried again when this changes. */
async function folderSignature(folder: string): Promise<string> {
  const parts = await Promise.all(
    WATCHED.map(async (f) => {
      const s = await stat(join(folder, f)).catch(() => null);
      return s ? `${f}:${s.size}:${s.mtimeMs}` : `${f}:-`;
    }),
  );
  return parts.join('|');
}

/**
 * A message fit to show users: the model folder's path becomes relative to it, and any other absolute path
 * (ONNX Runtime names files in its errors) is left out.
 */
function scrubPaths(message: string, folder: string): string {
  return message
    .split(folder + sep)
    .join('')
    .split(folder)
    .join('the model folder')
    .replace(/(^|[\s'"(=])(?:[A-Za-z]:)?[\\/][^\s'"()]+/g, '$1(a path)')
    .slice(0, 500);
}
