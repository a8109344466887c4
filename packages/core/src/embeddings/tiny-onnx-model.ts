import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

/**
 * Test fixture, never used by the product: a tiny but real Hugging Face style model folder, built at test time
 * because no model can be downloaded here. `onnx/model.onnx` is a real ONNX graph (serialised with onnx-proto,
 * the ONNX schema compiled for protobufjs) that ONNX Runtime runs: `input_ids` [batch, seq] int64 (plus
 * `token_type_ids`, added to them, and `attention_mask`, multiplied in) → Gather from a fixed embedding matrix
 * → `last_hidden_state` [batch, seq, 8] float32. `tokenizer.json` is a BERT-style WordPiece tokenizer (lower
 * case, [CLS] … [SEP]) whose vocabulary puts related words on near rows: "car", "automobile" and "vehicle"
 * share a direction, so do "refund" and "reimbursement", and so on. So a test can tell that the graph really
 * ran: similar words rank together, and another `variant` (another matrix) gives other vectors.
 *
 * @example
 * const model = tinyOnnxModelFolder();
 * const config = { kind: 'onnx', modelPath: model.path, batchSize: 4 } as const;
 * model.cleanup();
 */
/**
 * Compute added for benchmarks only: `layers` feed-forward blocks (h + Relu(h·W1)·W2, W1 [width, 4·width], fixed
 * pseudo-random weights) after the lookup, on rows widened to `width`, reading `maxTokens` tokens — the cost of
 * a real encoder's size (e.g. 6 × 384 like MiniLM-L6, without attention), not its knowledge.
 */
interface TinyModelLoad {
  layers: number;
  width: number;
  maxTokens: number;
}

export interface TinyOnnxModel {
  /** The folder (under the system's temporary folder). */
  path: string;
  dims: number;
  cleanup(): void;
}

/** Groups of words that share a direction in the matrix (one dimension per group). */
export const TINY_MODEL_CONCEPTS: string[][] = [
  ['car', 'automobile', 'vehicle', 'auto'],
  ['refund', 'reimbursement', 'repayment', 'money'],
  ['holiday', 'vacation', 'leave'],
  ['doctor', 'physician', 'medic'],
  ['contract', 'agreement', 'lease'],
];
/** Words with rows of their own, off the concepts' directions. */
const FILLERS = ['the', 'a', 'of', 'and', 'for', 'is', 'needs', 'new', 'tyres', 'policy', 'note', 'text', 'lunch', 'menu', 'soup', 'page', '##s'];
const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
const DIMS = 8;

/** The vocabulary: special tokens, then the concepts' words, then the fillers. */
function vocabulary(): string[] {
  return [...SPECIALS, ...TINY_MODEL_CONCEPTS.flat(), ...FILLERS];
}

/**
 * The embedding matrix [vocab, 8]: a concept's words lie on its dimension (variant `b` moves every concept to
 * another dimension and turns it round), with a small word-specific part on the last three; fillers lie on the
 * last three; special and unknown tokens are nearly zero, as padding must not matter.
 */
function matrix(variant: 'a' | 'b'): Float32Array {
  const vocab = vocabulary();
  const m = new Float32Array(vocab.length * DIMS);
  for (const [row, word] of vocab.entries()) {
    const at = row * DIMS;
    const group = TINY_MODEL_CONCEPTS.findIndex((g) => g.includes(word));
    if (group >= 0) {
      const k = TINY_MODEL_CONCEPTS[group]!.indexOf(word);
      const dim = variant === 'a' ? group : (group + 2) % 5;
      m[at + dim] = variant === 'a' ? 1 : -1;
      m[at + 5 + (k % 3)] = 0.1;
    } else if (FILLERS.includes(word)) {
      for (let d = 5; d < DIMS; d++) m[at + d] = 0.08 * Math.sin(row * 7 + d * (variant === 'a' ? 3 : 5));
    } else {
      m[at + DIMS - 1] = 0.01;
    }
  }
  return m;
}

/** Fixed pseudo-random weights in [-scale, scale]. */
function weights(count: number, seed: number, scale: number): Float32Array {
  const w = new Float32Array(count);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    w[i] = ((x >>> 0) / 4294967296 - 0.5) * 2 * scale;
  }
  return w;
}

/** The 8-wide matrix with every row widened to `width` (zeros beyond the eighth column). */
function widened(m: Float32Array, width: number): Float32Array {
  const rows = m.length / DIMS;
  const out = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++) out.set(m.subarray(r * DIMS, (r + 1) * DIMS), r * width);
  return out;
}

function modelBytes(variant: 'a' | 'b', load?: TinyModelLoad): Uint8Array {
  const { onnx } = onnxProto;
  const vocab = vocabulary();
  const INT64 = onnx.TensorProto.DataType.INT64;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT = onnx.AttributeProto.AttributeType.INT;
  const dim = (d: string | number) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d });
  const value = (name: string, elemType: number, shape: Array<string | number>) => ({
    name,
    type: { tensorType: { elemType, shape: { dim: shape.map(dim) } } },
  });
  const width = load?.width ?? DIMS;
  const table = load ? widened(matrix(variant), width) : matrix(variant);
  const blocks: { initializer: object[]; node: object[] } = { initializer: [], node: [] };
  let hidden = 'masked';
  for (let l = 0; l < (load?.layers ?? 0); l++) {
    const w1 = weights(width * 4 * width, 2 * l + 1, 1 / Math.sqrt(width));
    const w2 = weights(4 * width * width, 2 * l + 2, 0.1 / Math.sqrt(4 * width));
    blocks.initializer.push(
      { name: `w1_${l}`, dims: [width, 4 * width], dataType: FLOAT, rawData: new Uint8Array(w1.buffer) },
      { name: `w2_${l}`, dims: [4 * width, width], dataType: FLOAT, rawData: new Uint8Array(w2.buffer) },
    );
    blocks.node.push(
      { opType: 'MatMul', input: [hidden, `w1_${l}`], output: [`up_${l}`] },
      { opType: 'Relu', input: [`up_${l}`], output: [`act_${l}`] },
      { opType: 'MatMul', input: [`act_${l}`, `w2_${l}`], output: [`down_${l}`] },
      { opType: 'Add', input: [hidden, `down_${l}`], output: [`h_${l}`] },
    );
    hidden = `h_${l}`;
  }
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'stoa tiny-onnx-model.ts (test fixture)',
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'stoa_tiny_embedder',
      initializer: [
        { name: 'embeddings', dims: [vocab.length, width], dataType: FLOAT, rawData: new Uint8Array(table.buffer) },
        { name: 'last_axis', dims: [1], dataType: INT64, int64Data: [-1] },
        ...blocks.initializer,
      ],
      node: [
        { opType: 'Add', input: ['input_ids', 'token_type_ids'], output: ['ids'] },
        { opType: 'Gather', input: ['embeddings', 'ids'], output: ['gathered'], attribute: [{ name: 'axis', type: INT, i: 0 }] },
        { opType: 'Cast', input: ['attention_mask'], output: ['mask_float'], attribute: [{ name: 'to', type: INT, i: FLOAT }] },
        { opType: 'Unsqueeze', input: ['mask_float', 'last_axis'], output: ['mask3'] },
        { opType: 'Mul', input: ['gathered', 'mask3'], output: ['masked'] },
        ...blocks.node,
        { opType: 'Identity', input: [hidden], output: ['last_hidden_state'] },
      ],
      input: [value('input_ids', INT64, ['batch', 'seq']), value('attention_mask', INT64, ['batch', 'seq']), value('token_type_ids', INT64, ['batch', 'seq'])],
      output: [value('last_hidden_state', FLOAT, ['batch', 'seq', width])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

function tokenizerJson(): unknown {
  const vocab = Object.fromEntries(vocabulary().map((w, i) => [w, i]));
  const special = (content: string) => ({ id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

/**
 * Writes the tiny model into `dir` (created if missing): `config.json`, `tokenizer.json`,
 * `tokenizer_config.json` and `onnx/model.onnx`.
 */
function writeTinyOnnxModel(dir: string, opts: { variant?: 'a' | 'b'; load?: TinyModelLoad } = {}): void {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), modelBytes(opts.variant ?? 'a', opts.load));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: opts.load?.maxTokens ?? 32,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
    }),
  );
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      _name_or_path: opts.load ? `stoa-tiny-onnx-test-fixture-${opts.load.layers}x${opts.load.width}` : 'stoa-tiny-onnx-test-fixture',
      model_type: 'bert',
      hidden_size: opts.load?.width ?? DIMS,
      max_position_embeddings: Math.max(64, opts.load?.maxTokens ?? 0),
    }),
  );
}

/** A fresh folder with the tiny model, under the system's temporary folder. */
export function tinyOnnxModelFolder(opts: { variant?: 'a' | 'b'; load?: TinyModelLoad } = {}): TinyOnnxModel {
  const path = mkdtempSync(join(tmpdir(), 'stoa-tiny-onnx-'));
  writeTinyOnnxModel(path, opts);
  return { path, dims: opts.load?.width ?? DIMS, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
