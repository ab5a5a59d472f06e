// VOD pay-per-view over HTTP on every backend: status and verify on the Roku app 303 (24-hour
// unlocks) and the Google app 302, against local store servers.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ppvUnlocks, verificationAttempts } from '../src/db/schema.ts';
import { bearer, customClient, invalidWith, type Headers } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';
import { at, dataOf, googleProduct, HOUR, PPV, ROKU, rokuTransaction, SKU, useEntitlementApp, useStores } from './support/entitlements.ts';

const stores = useStores();

const device = (id: string): Headers => ({ ...ROKU, 'device-id': id });
const vodPpvOnly = (errors: { data: { errors: Record<string, unknown> } }) => Object.keys(errors.data.errors);

describe.each(BACKENDS)('VOD pay-per-view (%s)', (kind) => {
  const t = useEntitlementApp(kind, stores);
  const { get, post, login } = customClient(t);

  const status = async (query: string, headers: Headers = device('dev-a'), now?: string) => {
    return dataOf(await get(`${PPV}/status?${query}`, headers, now));
  };
  const verify = (body: Record<string, unknown>, headers: Headers = device('dev-a'), now?: string) =>
    post(`${PPV}/verify`, { store_platform: 'Roku', product_id: SKU.rokuPpv, receipt_data: 'ppv-1', video_tube_id: 5002, ...body }, headers, now);
  const verified = async (body: Record<string, unknown>, headers?: Headers, now?: string) => {
    return dataOf(await verify(body, headers, now));
  };
  const sell = (id: string, extra: Record<string, unknown> = {}) => stores().roku.records.set(id, rokuTransaction(id, SKU.rokuPpv, null, extra));
  const playable = (video: number, headers: Headers, now?: string) => get(`/token_by_video/${video}`, headers, now);

  describe('status', () => {
    it('says unlocked on an app without VOD PPV', async () => {
      expect(await status('video_tube_id=5002', { 'platform-id': 'ios', 'device-id': 'dev-a' })).toEqual({
        vodPpvEnabled: false,
        unlocked: true,
        expiresUtc: null,
        storeProductId: '',
        accessDurationHours: 48,
      });
    });

    it('reports a locked video with the PPV SKU of the client store and the access duration', async () => {
      expect(await status('video_tube_id=5002')).toEqual({ vodPpvEnabled: true, unlocked: false, expiresUtc: null, storeProductId: SKU.rokuPpv, accessDurationHours: 24 });
      expect(await status('video_tube_id=5002', { 'platform-id': 'android-tv', 'device-id': 'dev-a' })).toMatchObject({ storeProductId: SKU.googlePpv });
    });

    it('refuses a missing or unknown video, a video of no VOD catalog of the owner, a channel without it', async () => {
      expect((await get(`${PPV}/status`, device('dev-a'))).json()).toEqual(invalidWith('video_tube_id'));
      expect((await get(`${PPV}/status?video_tube_id=abc`, device('dev-a'))).json()).toEqual(invalidWith('video_tube_id'));
      for (const video of [999999, 5004, 6001]) {
        expect((await get(`${PPV}/status?video_tube_id=${video}`, device('dev-a'))).json(), String(video)).toEqual(invalidWith('video_tube_id'));
      }
      expect((await get(`${PPV}/status?video_tube_id=5001&channel_tube_id=202`, device('dev-a'))).json()).toEqual(invalidWith('channel_tube_id'));
      expect((await get(`${PPV}/status?video_tube_id=5002`, ROKU)).json()).toEqual(invalidWith('device_id'));
    });
  });

  describe('verify', () => {
    it('unlocks the video for the device for accessDurationHours: status, VOD stream and token_by_video', async () => {
      expect((await playable(5002, device('dev-a'))).statusCode).toBe(403);
      sell('ppv-1');
      expect(await verified({})).toEqual({ ok: true, unlocked: true, error: null, expiresUtc: at(24 * HOUR) });
      expect(await status('video_tube_id=5002')).toMatchObject({ unlocked: true, expiresUtc: at(24 * HOUR) });
      expect((await playable(5002, device('dev-a'))).statusCode).toBe(200);
      expect((await playable(5002, device('dev-b'))).statusCode).toBe(403);
      expect(await status('video_tube_id=5001')).toMatchObject({ unlocked: false });
      // Expired after accessDurationHours.
      expect(await status('video_tube_id=5002', device('dev-a'), at(24 * HOUR))).toMatchObject({ unlocked: false, expiresUtc: null });
      expect((await playable(5002, device('dev-a'), at(24 * HOUR))).statusCode).toBe(403);
    });

    it('scopes an unlock bought in a channel to that channel', async () => {
      sell('ppv-1');
      await verified({ channel_tube_id: 201 });
      expect(await status('video_tube_id=5002&channel_tube_id=201')).toMatchObject({ unlocked: true });
      expect(await status('video_tube_id=5002&channel_tube_id=202')).toMatchObject({ unlocked: false });
    });

    it('records the viewer when a Bearer is sent', async () => {
      const token = await login('victor@example.com', 'viewer pass');
      sell('ppv-1');
      await verified({}, { ...device('dev-a'), ...bearer(token) });
      expect(await status('video_tube_id=5002', { ...device('dev-z'), ...bearer(token) })).toMatchObject({ unlocked: true });
    });

    it('is idempotent and never extends: the same transaction again keeps its first expiry', async () => {
      sell('ppv-1');
      await verified({});
      expect(await verified({}, device('dev-a'), at(HOUR))).toEqual({ ok: true, unlocked: true, error: null, expiresUtc: at(24 * HOUR) });
      expect(await verified({}, device('dev-a'), at(25 * HOUR))).toEqual({ ok: false, unlocked: false, error: 'expired', expiresUtc: at(25 * HOUR) });
      expect(await t().database.db.select().from(ppvUnlocks).where(eq(ppvUnlocks.appId, 303))).toHaveLength(1);
    });

    it('moves the unlock to a second device claiming the same transaction, and refuses it for another video', async () => {
      sell('ppv-1');
      await verified({});
      expect(await verified({}, device('dev-b'))).toMatchObject({ ok: true, unlocked: true });
      expect(await status('video_tube_id=5002', device('dev-b'))).toMatchObject({ unlocked: true });
      expect(await status('video_tube_id=5002', device('dev-a'))).toMatchObject({ unlocked: false });
      expect(await verified({ video_tube_id: 5001 }, device('dev-b'))).toEqual({ ok: false, unlocked: false, error: 'transaction_used', expiresUtc: at(0) });
      expect(await status('video_tube_id=5001', device('dev-b'))).toMatchObject({ unlocked: false });
    });

    it('refuses under errors.vod_ppv: bad product, other store SKU, subscription SKU, video or channel outside the catalog, bad fields', async () => {
      sell('ppv-1');
      const refused = [
        { product_id: 'alice.roku.ppv2' },
        { product_id: SKU.googlePpv },
        { product_id: SKU.rokuMonthly },
        { video_tube_id: 999999 },
        { video_tube_id: 6001 },
        { video_tube_id: 5001, channel_tube_id: 202 },
        { video_tube_id: 'abc' },
        { video_tube_id: undefined },
        { receipt_data: undefined },
        { store_platform: 'Nintendo' },
        { product_id: '' },
      ];
      for (const body of refused) {
        const response = await verify(body);
        expect([response.statusCode, vodPpvOnly(response.json())], JSON.stringify(body)).toEqual([422, ['vod_ppv']]);
      }
      expect(stores().roku.calls()).toBe(0);
      const off = await verify({}, { 'platform-id': 'ios', 'device-id': 'dev-a' });
      expect(vodPpvOnly(off.json())).toEqual(['vod_ppv']);
      expect((await verify({}, { 'device-id': 'dev-a' })).json()).toEqual(invalidWith('platform_id'));
    });

    it('answers ok false and unlocks nothing for junk, another app, a down store or HTML from the store', async () => {
      const locked = { ok: false, unlocked: false, expiresUtc: at(0) };
      expect(await verified({ receipt_data: 'junk' })).toEqual({ ...locked, error: 'invalid' });
      stores().roku.records.set('ppv-x', rokuTransaction('ppv-x', SKU.rokuPpv, null, { channelId: '777' }));
      expect(await verified({ receipt_data: 'ppv-x' })).toEqual({ ...locked, error: 'wrong_app' });
      sell('ppv-1');
      stores().roku.mode = 'down';
      expect(await verified({})).toEqual({ ...locked, error: 'store_unavailable' });
      stores().roku.mode = 'html';
      expect(await verified({})).toEqual({ ...locked, error: 'store_unavailable' });
      expect(await t().database.db.select().from(ppvUnlocks).where(eq(ppvUnlocks.appId, 303))).toEqual([]);
    });

    it('keeps an earlier unlock when a later verify fails', async () => {
      sell('ppv-1');
      await verified({});
      stores().roku.mode = 'down';
      expect(await verified({ receipt_data: 'ppv-2' }, device('dev-a'), at(HOUR))).toEqual({ ok: false, unlocked: true, error: 'store_unavailable', expiresUtc: at(24 * HOUR) });
    });

    it('verifies a Google one-time purchase, and refuses a refunded one', async () => {
      const tv = { 'platform-id': 'android-tv', 'device-id': 'dev-g' };
      stores().google.records.set('token-1', googleProduct('GPA.1111', SKU.googlePpv));
      stores().google.records.set('token-2', googleProduct('GPA.2222', SKU.googlePpv, { purchaseState: 1 }));
      const body = { store_platform: 'Google', product_id: SKU.googlePpv, video_tube_id: 5001 };
      expect(await verified({ ...body, receipt_data: 'token-1' }, tv)).toEqual({ ok: true, unlocked: true, error: null, expiresUtc: at(24 * HOUR) });
      expect((await playable(5001, tv)).statusCode).toBe(200);
      expect(await verified({ ...body, receipt_data: 'token-2', video_tube_id: 5003 }, tv)).toMatchObject({ ok: false, unlocked: false, error: 'refunded' });
      const attempts = await t().database.db.select().from(verificationAttempts).orderBy(verificationAttempts.id);
      expect(attempts.map((a) => [a.route, a.storePlatform, a.outcome, a.videoId, a.transactionId])).toEqual([
        ['ppv_verify', 'Google', 'valid', 5001, 'GPA.1111'],
        ['ppv_verify', 'Google', 'refunded', 5003, 'GPA.2222'],
      ]);
    });
  });
});
