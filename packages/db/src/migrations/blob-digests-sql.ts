/**
 * SHA-1 and MD5 of stored content (migration 018), for sync clients that compare only those (rclone's
 * nextcloud and owncloud vendors). Keyed by the content's sha256, so one content is hashed once whatever the
 * number of files and versions that hold it; filled when a client first asks.
 */
export function blobDigestStatements(): string[] {
  return [
    `create table blob_digests (
      sha256 text primary key,
      sha1 text not null,
      md5 text not null
    )`,
  ];
}
