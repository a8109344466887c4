/**
 * Prints the OpenAPI document the server publishes, for the OpenAPI linter and the generated client types.
 * Usage: node --import tsx apps/server/scripts/print-openapi.ts > openapi.json
 */
import { apiDocument } from '../src/http/openapi.js';

process.stdout.write(JSON.stringify(apiDocument(), null, 2) + '\n');
