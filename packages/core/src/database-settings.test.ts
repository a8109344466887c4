import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const config = (env: Record<string, string>) => loadConfig({ dataDir: '/nowhere', env: { STOA_DATABASE_URL: 'postgres://db.example/stoa', ...env } });

describe('PostgreSQL settings', () => {
  it('STOA_PG_VACUUM is auto by default, takes off, and refuses anything else with the setting named', () => {
    expect(config({}).database).toMatchObject({ kind: 'postgres', vacuum: 'auto' });
    expect(config({ STOA_PG_VACUUM: 'off' }).database).toMatchObject({ vacuum: 'off' });
    expect(config({ STOA_PG_VACUUM: 'auto' }).database).toMatchObject({ vacuum: 'auto' });
    expect(() => config({ STOA_PG_VACUUM: 'sometimes' })).toThrow(/STOA_PG_VACUUM/);
  });

  it('STOA_DB_POOL_SIZE is 10 by default and an integer from 1 to 1000', () => {
    expect(config({}).database).toMatchObject({ poolSize: 10 });
    expect(config({ STOA_DB_POOL_SIZE: '3' }).database).toMatchObject({ poolSize: 3 });
    expect(() => config({ STOA_DB_POOL_SIZE: '0' })).toThrow(/STOA_DB_POOL_SIZE/);
  });
});
