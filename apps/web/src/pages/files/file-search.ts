import { useEffect, useState } from 'react';
import { filesApi, type FileInfo } from '../../api/files.js';

/**
 * The name search over the whole storage: asked a moment after typing stops, again when `epoch` moves.
 * `results` is there while a query is typed and its answer is in (the table then shows them), else null.
 *
 * @example
 * const { query, setQuery, results } = useFileSearch(pid, epoch, fail);
 */
export function useFileSearch(pid: string, epoch: number, fail: (e: unknown) => void) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ q: string; files: FileInfo[]; truncated: boolean } | null>(null);
  useEffect(() => {
    const q = query.trim();
    if (!q) return setResults(null);
    let gone = false;
    const timer = setTimeout(() => {
      filesApi.find(pid, q).then((r) => !gone && setResults({ q, ...r }), fail);
    }, 200);
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [pid, query, epoch, fail]);
  return { query, setQuery, results: results !== null && query.trim() !== '' ? results : null };
}
