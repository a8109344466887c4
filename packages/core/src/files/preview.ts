import type { Readable } from 'node:stream';
import type { Ctx } from '../platform.js';
import { openFile, statFile } from './read-file.js';
import { isPreviewImage, isTextMime } from './mime.js';
import type { FileInfo } from './file-info.js';

export type PreviewKind = 'text' | 'image' | 'pdf' | 'none';

export interface Preview {
  info: FileInfo;
  kind: PreviewKind;
  /** Why there is no preview: 'too_large' or 'unsupported' (the UI then offers Download). */
  reason?: 'too_large' | 'unsupported';
  limit?: number;
  /** Content to show, as served by the preview endpoint. Text types (HTML and SVG too) are served as text/plain. */
  stream?: Readable;
  contentType?: string;
}

/**
 * Preview rules of F11: text up to STOA_PREVIEW_TEXT_BYTES as text; PNG/JPEG/GIF/WebP images and PDF up to
 * STOA_PREVIEW_MEDIA_BYTES; nothing else. HTML and SVG are text: shown as source, never rendered.
 *
 * @example
 * const p = await previewFile(ctx, 'index.html'); // kind 'text', contentType 'text/plain; charset=utf-8'
 */
export async function previewFile(ctx: Ctx, path: string, opts: { open?: boolean } = { open: true }): Promise<Preview> {
  const info = await statFile(ctx, path);
  const { previewTextBytes, previewMediaBytes } = ctx.platform.config.limits;
  let kind: PreviewKind = 'none';
  let limit: number | undefined;
  if (isTextMime(info.type)) [kind, limit] = ['text', previewTextBytes];
  else if (isPreviewImage(info.type)) [kind, limit] = ['image', previewMediaBytes];
  else if (info.type === 'application/pdf') [kind, limit] = ['pdf', previewMediaBytes];
  if (kind === 'none') return { info, kind, reason: 'unsupported' };
  if (info.size > limit!) return { info, kind: 'none', reason: 'too_large', limit };
  if (!opts.open) return { info, kind, limit };
  const opened = await openFile(ctx, info.path);
  const contentType = kind === 'text' ? 'text/plain; charset=utf-8' : info.type;
  return { info, kind, limit, stream: opened.stream, contentType };
}
