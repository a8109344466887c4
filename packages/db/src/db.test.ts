import { createTestDb, testDbKinds } from './test-db.js';
import { runDbContract } from './db-contract.js';

for (const kind of testDbKinds()) runDbContract(kind, () => createTestDb(kind));
