import { it } from 'vitest';
import { buildWorld } from './world.ts';
it('probe', async () => {
  const w = await buildWorld('pglite');
  const token = await w.freshToken(11);
  const auth = { authorization: `Bearer ${token}` };
  const urls = [
    '/api/v1/rest/channels/201/schedules?date=0000-01-01', '/api/v1/rest/channels/201/schedules?date=9999-12-31', '/api/v1/rest/channels/201/schedules?date=0001-01-01',
    '/api/v1/services/custom/users/11/channels/video?channels_ids=201&dates=0000-01-01', '/api/v1/services/custom/users/11/channels/video?channels_ids=201&dates=9999-12-31',
    '/api/v1/services/custom/users/11/channels/video?channels_ids=201&dates=00000101', '/api/v1/services/custom/users/11/channels/video?channels_ids=201&dates=99991231235959&timezone=Pacific/Kiritimati',
    '/api/v1/services/custom/users/11/channels/201/live?date=0000-01-01', '/api/v1/services/custom/users/11/channels/201/live?date=9999-12-31&timezone=Etc/GMT%2B12',
    '/api/v1/services/custom/users/11/channels/201/live?date=9999-12-31',
  ];
  for (const url of urls) {
    const r = await w.t.request({ method: 'GET', url, headers: auth });
    console.log('PROBE', url, r.statusCode, r.body.slice(0, 160));
  }
  for (const now of ['9999-12-31T23:00:00Z', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z']) {
    for (const url of ['/api/v1/services/custom/users/11/channels', '/api/v1/rest/analytics/summary', '/api/v1/services/custom/users/11/channels/201/live', '/api/v1/services/custom/users/11/channels/vod?channels_ids=201']) {
      const r = await w.t.request({ method: 'GET', url, headers: auth, now });
      console.log('PROBE now', now, url, r.statusCode, r.body.slice(0, 120));
    }
  }
  await w.close();
}, 120000);
