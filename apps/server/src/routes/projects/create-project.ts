import { projectRoutes } from '@stoa/contract';
import { createProjectFor } from '@stoa/core';
import { globalHandler } from '../../http/handler.js';

export default globalHandler(projectRoutes.createProject, ({ platform, principal }, i) => createProjectFor(platform, principal, { name: i.name, quotaBytes: i.quotaBytes ?? null }));
