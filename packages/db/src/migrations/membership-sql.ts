/**
 * Migration 028 (issue 26): an agent whose owner left its project is suspended until an admin reassigns or
 * deletes it; a login session ends at its expiry (STOA_SESSION_HOURS) or when its person logs out.
 */
export function membershipStatements(): string[] {
  return [`alter table agents add column suspended_at text`, `alter table tokens add column expires_at text`];
}
