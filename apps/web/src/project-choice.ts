import type { Project } from './api/files.js';

/** Where this browser keeps the project last picked (a project id, or {@link MY_FILES}). */
export const PROJECT_KEY = 'stoa.project';
/** The picker's value for your own files: a volume, resolved by the server for whoever is signed in. */
export const MY_FILES = '@users';

/**
 * The project a sign-in opens: the one picked last in this browser, else "default", else the first.
 *
 * @example
 * chooseProject(projects, localStorage.getItem(PROJECT_KEY))
 */
export function chooseProject(projects: Project[], wanted: string | null): Project | undefined {
  return projects.find((p) => p.id === wanted) ?? projects.find((p) => p.name === 'default') ?? projects[0];
}
