// Bucket naming rules of S3 (and of the compatible stores we target): 3–63 chars, lowercase letters, digits,
// dots and hyphens, starting and ending with a letter or digit.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Parses `STOA_STORAGE_URL`-style configuration. `s3://bucket/optional/prefix` gives the bucket and the prefix
 * without leading or trailing slashes (`''` when absent); any other scheme gives null (use the local disk).
 * An `s3://` URL with an invalid bucket name throws instead of silently falling back to the local disk.
 *
 * @example
 * parseS3Url('s3://stoa-prod/tenants/acme/'); // { bucket: 'stoa-prod', prefix: 'tenants/acme' }
 * parseS3Url('/var/lib/stoa');               // null
 */
export function parseS3Url(url: string): { bucket: string; prefix: string } | null {
  const m = /^s3:\/\/([^/?#]*)(\/[^?#]*)?$/i.exec(url.trim());
  if (!m) return null;
  const bucket = m[1] ?? '';
  if (!BUCKET.test(bucket)) throw new Error('STOA_STORAGE_URL must look like s3://BUCKET[/PREFIX] with a valid bucket name');
  return { bucket, prefix: normalizePrefix(m[2] ?? '') };
}

/**
 * Normalises a key prefix: no leading or trailing slashes, no empty, `.` or `..` segments.
 *
 * @example
 * normalizePrefix('/a//b/'); // 'a/b'
 */
export function normalizePrefix(prefix: string): string {
  const parts = prefix.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '.' || p === '..')) throw new Error('S3 prefix must not contain "." or ".." segments');
  return parts.join('/');
}
