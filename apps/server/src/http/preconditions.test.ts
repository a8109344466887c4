import { describe, expect, it } from 'vitest';
import { contentEtag, evaluatePreconditions, ifRangeHolds, pinnedVersion } from './preconditions.js';

const sha = 'ab'.repeat(32);
const tag = contentEtag(sha);
const modified = new Date('2026-03-01T10:00:00.900Z');
const file = { exists: true, sha256: sha, modified };
const none = { exists: false, sha256: null, modified: null };
const before = 'Sun, 01 Mar 2026 09:00:00 GMT';
const same = 'Sun, 01 Mar 2026 10:00:00 GMT';

// RFC 9110 section 13.1 and section 13.2.2, case by case; the doors' own tests (preconditions-http.test.ts) run them end to end.
describe('RFC 9110 preconditions', () => {
  it('If-Match: strong comparison, lists, * only for something that exists', () => {
    expect(evaluatePreconditions('PUT', { 'if-match': tag }, file)).toBeNull();
    expect(evaluatePreconditions('PUT', { 'if-match': `"x", ${tag}` }, file)).toBeNull();
    expect(evaluatePreconditions('PUT', { 'if-match': `W/${tag}` }, file)).toBe(412);
    expect(evaluatePreconditions('PUT', { 'if-match': '*' }, file)).toBeNull();
    expect(evaluatePreconditions('PUT', { 'if-match': '*' }, none)).toBe(412);
  });

  it('If-None-Match: weak comparison; 304 for reads, 412 for writes', () => {
    expect(evaluatePreconditions('GET', { 'if-none-match': `W/${tag}` }, file)).toBe(304);
    expect(evaluatePreconditions('HEAD', { 'if-none-match': tag }, file)).toBe(304);
    expect(evaluatePreconditions('DELETE', { 'if-none-match': tag }, file)).toBe(412);
    expect(evaluatePreconditions('PUT', { 'if-none-match': '*' }, none)).toBeNull();
    expect(evaluatePreconditions('PUT', { 'if-none-match': '*' }, file)).toBe(412);
  });

  it('the dates count only without the matching tag condition, whole seconds, and an unreadable date is ignored', () => {
    expect(evaluatePreconditions('PUT', { 'if-unmodified-since': before }, file)).toBe(412);
    expect(evaluatePreconditions('PUT', { 'if-unmodified-since': same }, file)).toBeNull();
    expect(evaluatePreconditions('PUT', { 'if-match': tag, 'if-unmodified-since': before }, file)).toBeNull();
    expect(evaluatePreconditions('GET', { 'if-modified-since': same }, file)).toBe(304);
    expect(evaluatePreconditions('GET', { 'if-modified-since': before }, file)).toBeNull();
    expect(evaluatePreconditions('PUT', { 'if-modified-since': same }, file)).toBeNull();
    expect(evaluatePreconditions('GET', { 'if-none-match': '"other"', 'if-modified-since': same }, file)).toBeNull();
    expect(evaluatePreconditions('GET', { 'if-modified-since': 'yesterday-ish' }, file)).toBeNull();
  });

  it('If-Range: a strong tag or the exact Last-Modified; anything else means the whole content', () => {
    expect(ifRangeHolds({}, file)).toBe(true);
    expect(ifRangeHolds({ 'if-range': tag }, file)).toBe(true);
    expect(ifRangeHolds({ 'if-range': `W/${tag}` }, file)).toBe(false);
    expect(ifRangeHolds({ 'if-range': '"other"' }, file)).toBe(false);
    expect(ifRangeHolds({ 'if-range': same }, file)).toBe(true);
    expect(ifRangeHolds({ 'if-range': before }, file)).toBe(false);
    expect(ifRangeHolds({ 'if-range': same }, { ...file, modified: null })).toBe(false);
  });

  it('a write pins the version its conditions saw, 0 for nothing there, and refuses with precondition_failed', () => {
    const current = { sha256: sha, version: 7, modified: modified.toISOString() };
    expect(pinnedVersion('PUT', { 'if-match': tag }, current)).toBe(7);
    expect(pinnedVersion('PUT', { 'if-none-match': '*' }, null)).toBe(0);
    expect(() => pinnedVersion('DELETE', { 'if-match': '"other"' }, current)).toThrow(expect.objectContaining({ code: 'precondition_failed' }));
  });
});
