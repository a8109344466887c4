import { describe, expect, it } from 'vitest';
import { normalizePrefix, parseS3Url } from './s3-url.js';

describe('parseS3Url', () => {
  it.each([
    ['s3://stoa', { bucket: 'stoa', prefix: '' }],
    ['s3://stoa/', { bucket: 'stoa', prefix: '' }],
    ['s3://stoa-prod/tenants/acme', { bucket: 'stoa-prod', prefix: 'tenants/acme' }],
    ['s3://stoa.data/a//b/', { bucket: 'stoa.data', prefix: 'a/b' }],
    ['S3://stoa/x', { bucket: 'stoa', prefix: 'x' }],
  ])('%s', (url, expected) => {
    expect(parseS3Url(url)).toEqual(expected);
  });

  it.each(['', './stoa-data', '/var/lib/stoa', 'file:///tmp/x', 'https://s3.amazonaws.com/stoa', 'postgres://x'])(
    'is null for %j (not object storage)',
    (url) => {
      expect(parseS3Url(url)).toBeNull();
    },
  );

  it.each(['s3://', 's3:///prefix', 's3://UPPER', 's3://ab', 's3://bad_name', 's3://stoa/../x'])('rejects %j', (url) => {
    expect(() => parseS3Url(url)).toThrow(/s3:\/\/BUCKET|segments/);
  });
});

describe('normalizePrefix', () => {
  it('strips slashes and empty segments', () => {
    expect(normalizePrefix('/a//b/')).toBe('a/b');
    expect(normalizePrefix('')).toBe('');
  });
});
