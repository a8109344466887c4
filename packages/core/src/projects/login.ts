import { StoaError } from '@stoa/contract';
import { newId, newToken } from '../ids.js';
import { inTx, type Platform } from '../platform.js';
import { hashToken } from './bootstrap.js';

/**
 * A one-time login link for the web UI: `serve` prints it; opening it exchanges the code for a fresh session
 * token once. Codes live in the database so any of several servers can redeem them.
 */
export async function createLoginCode(platform: Platform, userId: string, ttlSeconds = 900): Promise<string> {
  const code = newToken().slice(5);
  const now = platform.clock();
  await platform.db.kysely.insertInto('login_codes').values({ code_hash: hashToken(code), user_id: userId, created_at: now.toISOString(), expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString(), used_at: null }).execute();
  return code;
}

export async function redeemLoginCode(platform: Platform, code: string): Promise<{ token: string; user: string }> {
  const now = platform.clock().toISOString();
  return inTx(platform, async (trx) => {
    const row = await trx.selectFrom('login_codes').innerJoin('users', 'users.id', 'login_codes.user_id').select(['login_codes.user_id', 'login_codes.expires_at', 'login_codes.used_at', 'users.name'])
      .where('code_hash', '=', hashToken(code)).executeTakeFirst();
    if (!row || row.used_at || row.expires_at < now) throw new StoaError('unauthorized', 'this login link is invalid, used or expired; ask for a new one');
    await trx.updateTable('login_codes').set({ used_at: now }).where('code_hash', '=', hashToken(code)).execute();
    const token = newToken();
    await trx.insertInto('tokens').values({ id: newId('tok'), token_hash: hashToken(token), user_id: row.user_id, agent_id: null, name: 'web session', created_at: now, last_used_at: null, revoked_at: null }).execute();
    return { token, user: row.name };
  });
}
