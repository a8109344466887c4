// Writes packages/contract/src/route-index.ts from the route table (see render-route-index.ts).
import { writeFileSync } from 'node:fs';
import { renderRouteIndex } from '../packages/contract/src/render-route-index.js';

writeFileSync(new URL('../packages/contract/src/route-index.ts', import.meta.url), renderRouteIndex());
