/** The kinds of file the table draws a different icon for. */
type FileKind = 'text' | 'code' | 'image' | 'pdf' | 'sheet' | 'archive' | 'audio' | 'video' | 'other';

const byExtension: Record<string, FileKind> = {};
const add = (kind: FileKind, exts: string) => exts.split(' ').forEach((e) => (byExtension[e] = kind));
add('text', 'txt md markdown rst adoc org log rtf doc docx odt');
add('code', 'ts tsx js jsx mjs cjs py rb go rs java kt c h cc cpp hpp cs php swift sh bash zsh ps1 sql html htm css scss json yaml yml toml xml ini lua r pl');
add('image', 'png jpg jpeg gif webp svg bmp ico tif tiff heic avif');
add('pdf', 'pdf');
add('sheet', 'csv tsv xls xlsx ods numbers');
add('archive', 'zip tar gz tgz bz2 xz 7z rar zst');
add('audio', 'mp3 wav ogg oga flac m4a aac opus');
add('video', 'mp4 mkv webm mov avi m4v ogv');

/**
 * The kind of a file, from its name first (the extension people see) and its media type second, so the icon
 * matches what the name promises even when the server only knows application/octet-stream.
 *
 * @example
 * fileKind('notes/plan.md', 'text/markdown') // 'text'
 * fileKind('photo', 'image/png')             // 'image'
 */
export function fileKind(name: string, type: string): FileKind {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const known = byExtension[ext];
  if (known) return known;
  const mime = type.toLowerCase();
  if (mime === 'application/pdf') return 'pdf';
  if (/^(image|audio|video)\//.test(mime)) return mime.split('/')[0] as FileKind;
  if (/zip|tar|compressed|x-7z|gzip/.test(mime)) return 'archive';
  if (/spreadsheet|csv/.test(mime)) return 'sheet';
  if (/javascript|typescript|json|x-python|x-sh|html|css|xml/.test(mime)) return 'code';
  if (mime.startsWith('text/')) return 'text';
  return 'other';
}

/** What the Type column and the preview call a file, in words (the media type itself goes in a tooltip). */
type KindWord = 'pdf' | 'word' | 'sheet' | 'slides' | 'image' | 'text' | 'web' | 'code' | 'archive' | 'audio' | 'video' | 'other';

const wordByExtension: Record<string, KindWord> = {};
const addWord = (kind: KindWord, exts: string) => exts.split(' ').forEach((e) => (wordByExtension[e] = kind));
addWord('word', 'doc docx odt rtf');
addWord('slides', 'ppt pptx odp key');
addWord('web', 'html htm');

/**
 * The kind of a file in words: a finer cut than the icon's kind (a Word document is not plain text to a reader).
 *
 * @example
 * kindWord('plan.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') // 'word'
 * kindWord('notes', 'text/plain') // 'text'
 */
export function kindWord(name: string, type: string): KindWord {
  const dot = name.lastIndexOf('.');
  const known = wordByExtension[dot > 0 ? name.slice(dot + 1).toLowerCase() : ''];
  if (known) return known;
  const mime = type.toLowerCase();
  if (/wordprocessing|msword|opendocument\.text|rtf/.test(mime)) return 'word';
  if (/presentation|powerpoint/.test(mime)) return 'slides';
  if (/spreadsheet|ms-excel/.test(mime)) return 'sheet';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'web';
  return fileKind(name, type);
}
