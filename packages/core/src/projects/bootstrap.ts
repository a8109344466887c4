import { hash } from 'node:crypto';
import { newId, newToken } from '../ids.js';
import { inTx, type Platform } from '../platform.js';

export const DEFAULT_PROJECT = 'default';
export const ADMIN_USER = 'admin';

export function hashToken(token: string): string {
  // One call, no Hash object: every request hashes its token (issue 30).
  return hash('sha256', token, 'hex');
}

/**
 * Makes a fresh data folder usable: one organization, a project `default`, the bootstrap admin user, and the
 * admin's token — the installation's superuser token (docs/security.md). Returns a newly generated token (to print once) when none existed, or null.
 * With `STOA_ADMIN_TOKEN` set, that token is accepted for the admin and nothing is generated. With `issueToken:
 * false` (local mode, where nobody would see it) no token is generated either, so the first `serve` of a data
 * folder first used in local mode still prints one (issue 28).
 */
export async function bootstrap(platform: Platform, opts: { issueToken?: boolean } = {}): Promise<{ adminUserId: string; generatedToken: string | null }> {
  const now = platform.clock().toISOString();
  return inTx(platform, async (trx) => {
    let org = await trx.selectFrom('organizations').select('id').executeTakeFirst();
    if (!org) {
      org = { id: newId('org') };
      await trx.insertInto('organizations').values({ id: org.id, name: 'Stoa', created_at: now }).execute();
    }
    let admin = await trx.selectFrom('users').select('id').where('name', '=', ADMIN_USER).executeTakeFirst();
    if (!admin) {
      admin = { id: newId('usr') };
      await trx.insertInto('users').values({ id: admin.id, name: ADMIN_USER, display_name: 'Administrator', created_at: now }).execute();
    }
    const anyProject = await trx.selectFrom('projects').select('id').executeTakeFirst();
    if (!anyProject) {
      const id = newId('prj');
      await trx.insertInto('projects').values({ id, org_id: org.id, name: DEFAULT_PROJECT, quota_bytes: null, created_at: now }).execute();
      await trx.insertInto('members').values({ project_id: id, user_id: admin.id, role: 'admin', created_at: now }).execute();
    }
    let generatedToken: string | null = null;
    if (platform.config.adminToken) {
      const hash = hashToken(platform.config.adminToken);
      const exists = await trx.selectFrom('tokens').select('id').where('token_hash', '=', hash).executeTakeFirst();
      if (!exists) {
        await trx
          .insertInto('tokens')
          .values({
            id: newId('tok'),
            token_hash: hash,
            user_id: admin.id,
            agent_id: null,
            name: 'STOA_ADMIN_TOKEN',
            created_at: now,
            last_used_at: null,
            revoked_at: null,
            superuser: 1,
          })
          .execute();
      } else {
        // The operator's configured token is the installation's own, whoever's row held that hash before.
        await trx.updateTable('tokens').set({ superuser: 1, project_id: null, user_id: admin.id, agent_id: null }).where('id', '=', exists.id).execute();
      }
    } else if (opts.issueToken !== false) {
      const has = await trx
        .selectFrom('tokens')
        .select('id')
        .where('user_id', '=', admin.id)
        .where('superuser', '=', 1)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!has) {
        generatedToken = newToken();
        await trx
          .insertInto('tokens')
          .values({
            id: newId('tok'),
            token_hash: hashToken(generatedToken),
            user_id: admin.id,
            agent_id: null,
            name: 'bootstrap',
            created_at: now,
            last_used_at: null,
            revoked_at: null,
            superuser: 1,
          })
          .execute();
      }
    }
    return { adminUserId: admin.id, generatedToken };
  });
}
