/** File names for the benchmarks with many files; no import of the core (see scale-tree.ts). */

// Names in three scripts and several extensions, as a team's folders hold them.
const WORDS = [
  'report',
  'Отчёт',
  '会议纪要',
  'invoice',
  'photo',
  'Budget',
  'notes',
  'Протокол',
  'design-spec',
  'contract',
  '设计稿',
  'meeting',
  'draft',
  'summary',
  'Résumé',
  'data',
];
const EXTS = ['pdf', 'docx', 'md', 'jpg', 'xlsx', 'txt', 'png', 'csv'];

/** The `i`th file's name (`digits` wide numbering): words, years and extensions repeat, every name is unique. */
export function manyFilesName(i: number, digits: number): string {
  return `${WORDS[i % WORDS.length]} ${2000 + (i % 27)}-${String(i).padStart(digits, '0')}.${EXTS[(i >> 4) % EXTS.length]}`;
}
