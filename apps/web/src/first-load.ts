import { allWarm, getToken, prime } from './api/client.js';
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
 * one another: HTML → bundle → all of it at once, rather than → me → folder. Settles (never fails) when those
 * answers are in, so the first render can wait for them (main.tsx). `warm` says that the first render need not:
 * every answer asked for has last visit's to draw from at once (warm-cache.ts), the fresh ones replace them.
 *
 * @example
 * const { answersIn, warm } = startFirstLoad(); // in main.tsx, before createRoot
 */
export function startFirstLoad(): { answersIn: Promise<void>; warm: boolean } {
  const none = { answersIn: Promise.resolve(), warm: false };
  if (!getToken()) return none;
  const { page, rest } = pageOf(location.pathname);
  // Sign-in and an application's consent page stand outside the shell: nothing of a project to load ahead.
  if (page === 'login' || page === 'join' || page === 'consent') return none;
  const asked: Array<Promise<unknown>> = [];
  let projects: ReturnType<typeof filesApi.projects> | undefined;
  prime(() => {
    asked.push(filesApi.me(), (projects = filesApi.projects()));
  });
  if (page !== 'files') void pageChunks[page]().catch(() => undefined);
  const wanted = localStorage.getItem(PROJECT_KEY);
  // A volume (your own files, a knowledge base…) is resolved by the shell first: nothing to guess ahead of it.
  const inVolume = wanted === MY_FILES || wanted?.startsWith('vol_') || new URLSearchParams(location.search).has('volume');
  // A volume's session needs one more answer (the shell asks for it): its first render waits as before.
  if (inVolume || (page !== 'files' && page !== 'wiki')) return { answersIn: settled(asked), warm: !inVolume && allWarm() };
  // The project picked last is almost always the one the shell opens again: its data is asked for at once,
  // beside `me` and the projects, instead of after them (one round trip less). Should the shell pick another
  // one (the project was deleted, say), that one is asked for when the projects are in, and the guess expires
  // unused.
  const askFor = (project: string) => {
    const got: Array<Promise<unknown>> = [];
    prime(() => {
      if (page === 'wiki') got.push(wikiApi.list(project), ...(rest ? [wikiApi.get(project, rest)] : []));
      else got.push(filesApi.tree(project), filesApi.folder(project, rest), filesApi.usage(project));
    });
    return got;
  };
  const guessed = wanted ? askFor(wanted) : [];
  const chosen = projects!.then(
    (list) => {
      const project = chooseProject(list, wanted);
      return settled(project && project.id !== wanted ? askFor(project.id) : guessed);
    },
    () => undefined,
  );
  return { answersIn: Promise.all([settled(asked), chosen]).then(() => undefined), warm: allWarm() };
}

function settled(answers: Array<Promise<unknown>>): Promise<void> {
  return Promise.allSettled(answers).then(() => undefined);
}
