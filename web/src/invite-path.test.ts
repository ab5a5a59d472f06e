import { describe, expect, it } from 'vitest';
import { inviteTokenOf } from './invite-path.ts';

describe('inviteTokenOf', () => {
  it('reads the token of /studio/invite/<token>, with or without a trailing slash', () => {
    expect(inviteTokenOf('/studio/invite/Ab-9_x')).toBe('Ab-9_x');
    expect(inviteTokenOf('/studio/invite/Ab-9_x/')).toBe('Ab-9_x');
  });

  it('is null for every other address, and for tokens of other characters or lengths', () => {
    for (const path of ['/studio/', '/studio/invite/', '/studio/invite', '/invite/abc', '/studio/invite/a/b', '/studio/invite/a%20b', `/studio/invite/${'a'.repeat(201)}`]) {
      expect(inviteTokenOf(path), path).toBeNull();
    }
  });
});
