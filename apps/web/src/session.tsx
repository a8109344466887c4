import { createContext, useContext } from 'react';
import type { Me, Project } from './api/files.js';
import type { VolumeScope } from './api/volumes.js';

/** Who is signed in and in which project, with the role that decides which controls are enabled (F14). */
export interface Session {
  me: Me;
  project: Project;
  projects: Project[];
  role: 'admin' | 'editor' | 'viewer';
  canEdit: boolean;
  isAdmin: boolean;
  /** Set when the signed-in person works in a volume beyond projects (R1: their own files, a knowledge base…), not in a project. */
  volume?: boolean;
  /** The volume's typed scope, as the server resolved it, when `volume` is set. */
  scope?: VolumeScope;
}

export const SessionContext = createContext<Session | null>(null);

/**
 * The current session; only used below the signed-in shell.
 *
 * @example
 * const { project, canEdit } = useSession();
 */
export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside the signed-in shell');
  return s;
}

/**
 * The session of a user in one project, with the rights its role gives.
 *
 * @example
 * sessionFor(me, projects, projects[0]!).canEdit // false for a viewer
 */
export function sessionFor(me: Me, projects: Project[], project: Project): Session {
  // Superusers see every project with role "admin"; anything unknown is treated as the least right.
  const role: Session['role'] = project.role === 'admin' || project.role === 'editor' ? project.role : 'viewer';
  return { me, project, projects, role, canEdit: role !== 'viewer', isAdmin: role === 'admin' };
}
