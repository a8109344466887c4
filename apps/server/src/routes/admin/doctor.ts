import { adminRoutes } from '@stoa/contract';
import { runDoctor } from '@stoa/core';
import { globalHandler } from '../../http/handler.js';

export default globalHandler(adminRoutes.doctor, ({ platform, principal }, input) => runDoctor(platform, principal, { repair: input.repair }));
