// The registry of interface groups: which envelope a URL is answered in when no route of the
// group answers it (refusals before routing, load shedding), and what the docs show.
import { describe, expect, it } from 'vitest';
import { ACTIVITY_ENVELOPE } from '../src/activity/errors.ts';
import { CUSTOM_ENVELOPE } from '../src/custom/errors.ts';
import { envelopeAt, GROUPS, isDocumented } from '../src/groups.ts';
import { LEGACY_ENVELOPE } from '../src/legacy/errors.ts';
import { SUCCESS_ENVELOPE } from '../src/http/success-envelope.ts';

describe('interface group registry', () => {
  it.each([
    ['/api/v1/rest', SUCCESS_ENVELOPE],
    ['/api/v1/rest/channels?limit=1', SUCCESS_ENVELOPE],
    ['/api/v1/rest?x=1', SUCCESS_ENVELOPE],
    ['/api/v1/services/custom/users/1/channels', CUSTOM_ENVELOPE],
    // The longest prefix wins: activity's Custom path is under the Custom API's.
    ['/api/v1/services/custom/activity', ACTIVITY_ENVELOPE],
    ['/api/v1/services/custom/activity/x', ACTIVITY_ENVELOPE],
    ['/api/v1/activity', ACTIVITY_ENVELOPE],
    // Every other path under /api/v1/services is the Custom API's (its 404 too).
    ['/api/v1/services', CUSTOM_ENVELOPE],
    ['/api/v1/services/mobile/users/1/channels', CUSTOM_ENVELOPE],
    ['/api/v1/services/custom/activityX', CUSTOM_ENVELOPE],
    ['/WebServices/VastService.asmx/GetVastSettings', LEGACY_ENVELOPE],
  ])('answers %s in its group envelope', (path, envelope) => {
    expect(envelopeAt(path)).toBe(envelope);
  });

  it.each(['/healthz', '/assets/apps/1/logo', '/api/v1/restX', '/api/v1/activityX', '/WebServicesX', '/'])(
    'leaves %s, which no group prefix holds, to the operational answers',
    (path) => expect(envelopeAt(path)).toBeUndefined(),
  );

  it('documents the REST API, the Custom API and activity, not the Legacy Web Services or compat trees', () => {
    expect(['/api/v1/rest/channels', '/api/v1/services/custom/users/:id/channels', '/api/v1/activity', '/api/v1/services/custom/activity'].every(isDocumented)).toBe(true);
    expect(['/WebServices/*', '/api/v1/services/mobile/users/:id/channels', '/healthz', '/assets/apps/:appId/:role'].some(isDocumented)).toBe(false);
  });

  it('names each group once', () => {
    expect(new Set(GROUPS.map((g) => g.name)).size).toBe(GROUPS.length);
  });
});
