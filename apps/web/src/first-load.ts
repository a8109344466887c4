import { getToken, prime } from './api/client.js';
import { filesApi } from './api/files.js';
import { wikiApi } from './api/wiki.js';
import { pageChunks } from './pages/page-chunks.js';
import { chooseProject, MY_FILES, PROJECT_KEY } from './project-choice.js';
import { pageOf } from './route-path.js';

/**
 * Asks for the first screen's data before React has rendered anything (issue 13): who is signed in, the
 * projects, the page's chunk and, on the Files and Wiki pages, what they show first of the project the shell will
 * pick (of the one picked last at once, else as soon as the projects are in).
 * The shell and the page then make the same calls and get these answers (see `prime`), instead of waiting for
 * one another: HTML → bundle → all of it at once, rather than → me → folder.
 *
 * @example
 * startFirstLoad(); // in main.tsx, before createRoot
 */
export function startFirstLoad(): void {
  if (!getToken()) return;
  const { page, rest } = pageOf(location.pathname);
  if (page === 'login') return;
  let projects: ReturnType<typeof filesApi.projects> | undefined;
  prime(() => {
    void filesApi.me();
    projects = filesApi.projects();
  });
  if (page !== 'files') void pageChunks[page]().catch(() => undefined);
  const wanted = localStorage.getItem(PROJECT_KEY);
  // A volume (your own files, a knowledge base…) is resolved by the shell first: nothing to guess ahead of it.
  const inVolume = wanted === MY_FILES || wanted?.startsWith('vol_') || new URLSearchParams(location.search).has('volume');
  if (inVolume || (page !== 'files' && page !== 'wiki')) return;
  // The project picked last is almost always the one the shell opens again: its data is asked for at once,
  // beside `me` and the projects, instead of after them (one round trip less). Should the shell pick another
  // one (the project was deleted, say), that one is asked for when the projects are in, and the guess expires
  // unused.
  const askFor = (project: string) =>
    prime(() => {
      if (page === 'wiki') {
        void wikiApi.list(project);
        if (rest) void wikiApi.get(project, rest);
        return;
      }
      void filesApi.tree(project);
      void filesApi.folder(project, rest);
      void filesApi.usage(project);
    });
  if (wanted) askFor(wanted);
  projects?.then(
    (list) => {
      const project = chooseProject(list, wanted);
      if (project && project.id !== wanted) askFor(project.id);
    },
    () => undefined,
  );
}
