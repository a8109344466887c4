import { projectRoutes } from '@stoa/contract';
import { listProjectsFor } from '@stoa/core';
import { globalHandler } from '../../http/handler.js';

export default globalHandler(projectRoutes.listProjects, ({ platform, principal }) => listProjectsFor(platform, principal));
