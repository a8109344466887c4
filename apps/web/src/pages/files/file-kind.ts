/** The kinds of file the table draws a different icon for. */
type FileKind = 'text' | 'code' | 'image' | 'pdf' | 'sheet' | 'archive' | 'audio' | 'video' | 'other';

const byExtension: Record<Exclude<FileKind, 'other'>, string[]> = {
  text: ['txt', 'md', 'markdown', 'rst', 'rtf', 'doc', 'docx', 'odt', 'log'],
  code: [
    'js',
    'mjs',
    'cjs',
    'ts',
    'tsx',
    'jsx',
    'py',
    'rb',
    'go',
    'rs',
    'java',
    'kt',
    'c',
    'h',
    'cpp',
    'hpp',
    'cs',
    'php',
    'sh',
    'sql',
    'html',
    'css',
    'json',
    'yaml',
    'yml',
    'toml',
    'xml',
  ],
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'bmp', 'ico', 'tif', 'tiff', 'heic', 'avif'],
  pdf: ['pdf'],
  sheet: ['csv', 'tsv', 'xls', 'xlsx', 'ods'],
  archive: ['zip', 'tar', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'zst'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'flac', 'm4a', 'aac', 'opus'],
  video: ['mp4', 'm4v', 'mov', 'webm', 'mkv', 'avi', 'ogv'],
};
const kindOf = new Map(Object.entries(byExtension).flatMap(([kind, exts]) => exts.map((e) => [e, kind as FileKind])));

/**
 * The kind of a file from its name's extension (case ignored); names without a known extension are "other".
 *
 * @example
 * fileKind('Report.PDF') // 'pdf'
 */
export function fileKind(name: string): FileKind {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? (kindOf.get(name.slice(dot + 1).toLowerCase()) ?? 'other') : 'other';
}
