/**
 * Every action the audit logs record (F15), so that every door can name it: the web UI has words for each in
 * its three languages (apps/web/src/i18n/i18n.test.ts fails for one without), and the core records no other
 * (packages/core/src/audit/audit-actions.test.ts). Add a new action here first (issue 29).
 */
export const auditActions = [
  'file.upload',
  'file.move',
  'file.delete',
  'file.restore',
  'folder.create',
  'folder.move',
  'folder.delete',
  'trash.restore',
  'trash.purge',
  'volume.create',
  'volume.delete',
  'conversation.revert',
  'member.remove',
  'lock.release',
  'share.create',
  'share.revoke',
] as const;

/** What the installation's own audit log records (`stoa audit --installation`). */
export const installationAuditActions = ['project.delete'] as const;

export type AuditActionName = (typeof auditActions)[number] | (typeof installationAuditActions)[number];
