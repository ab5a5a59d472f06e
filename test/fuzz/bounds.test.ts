// Issue 12: the work and memory one caller can make the service spend. The worst requests the
// bounds still accept each stay within the per-request CPU budget, and many distinct requests
// (new zone spellings, ignored parameters, junk query strings) leave the heap where it was:
// nothing a caller chooses may become a cache key or a formatter kept for ever.
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHANNEL_DAYS, MAX_DATE_SPAN_DAYS, MAX_LIST_ENTRIES } from '../../src/custom/params.ts';
import { BACKENDS } from '../support/db.ts';
import { cpuOf, REQUEST_CPU_BUDGET_MS } from './property.ts';
import { buildWorld, FUZZ_SEED, type FuzzWorld } from './world.ts';
import { expectCpuUnder } from '../support/cpu-bounds.ts';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * Resident memory after full collections (twice: weak references die in the second). Not the JS
 * heap alone: what a zone spelling cost was mostly ICU formatters, outside it.
 */
function memoryAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().rss;
}

/** Growth tolerated beyond the control round; the zone-spelling leak alone grew ~75 KB per spelling (44 MB over the 600 below). */
const HEAP_GROWTH_LIMIT = 16 * 1024 * 1024;
const CUSTOM = '/api/v1/services/custom';

const dates = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `2026-11-${String(from + i).padStart(2, '0')}`).join(',');
const ids = (n: number) => Array.from({ length: n }, (_, i) => 201 + i).join(',');

describe.each(BACKENDS)('what one caller can make the service spend, on %s', (kind) => {
  let world: FuzzWorld;
  beforeAll(async () => {
    world = await buildWorld(kind);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('the largest requests the bounds accept each stay within the CPU budget', async () => {
    const largest = [
      // As many channel-days as allowed, as many dates as allowed, the widest span allowed.
      `${CUSTOM}/users/11/channels/video?channels_ids=${ids(MAX_CHANNEL_DAYS / 10)}&dates=${dates(10)}&per_page=100`,
      `${CUSTOM}/users/11/channels/video?channels_ids=${ids(30)}&dates=${dates(MAX_DATE_SPAN_DAYS + 1)}&timezone=Etc/GMT%2B12`,
      `${CUSTOM}/users/11/channels/video?channels_ids=201&dates=1900-01-01,1900-01-31&timezone=Pacific/Kiritimati`,
      `${CUSTOM}/users/11/channels/vod?channels_ids=${ids(MAX_LIST_ENTRIES)}&per_page=100`,
      `${CUSTOM}/users/11/channels?category_id=${ids(MAX_LIST_ENTRIES)}&language_id=${ids(MAX_LIST_ENTRIES)}&timezone=Asia/Kolkata`,
    ];
    for (const url of largest) {
      const { result, cpuMs } = await cpuOf(() => world.t.request({ method: 'GET', url }));
      expect(result.statusCode, url).toBeLessThan(500);
      expectCpuUnder(cpuMs, REQUEST_CPU_BUDGET_MS, url);
    }
  });

  it('many distinct zone spellings, ignored parameters and query strings leave memory bounded', async () => {
    // A dozen zones, each in many spellings: what a zone costs once by design (a formatter, cached
    // days) is paid a dozen times; what a spelling costs would be paid for every request.
    const zones = [
      'America/New_York',
      'Europe/Berlin',
      'Asia/Kolkata',
      'UTC',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'America/St_Johns',
      'Asia/Kathmandu',
      'Europe/London',
      'America/Los_Angeles',
      'Africa/Casablanca',
      'Pacific/Kiritimati',
    ];
    const spelling = fc
      .tuple(fc.constantFrom(...zones), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }))
      .map(([zone, upper]) => [...zone].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
    const samples = fc.sample(spelling, { seed: FUZZ_SEED, numRuns: kind === 'pglite' ? 1200 : 400 });
    const send = (url: string) => world.t.request({ method: 'GET', url });
    const round = async (spellings: readonly string[], distinct: boolean) => {
      const before = memoryAfterGc();
      for (const [n, spelling] of spellings.entries()) {
        const zone = encodeURIComponent(spelling);
        const i = distinct ? n : 0;
        const answers = await Promise.all([
          send(`${CUSTOM}/users/11/channels?timezone=${zone}`),
          send(`${CUSTOM}/users/11/channels/video?channels_ids=201&dates=2026-11-21&timezone=${zone}&x${i}=${i}`),
          send(`/WebServices/TVAppGeneratorService.asmx/GetUserTVApp?userId=11&platform=fire-tv&skipImages=false&x=${i}`),
          send(`/WebServices/VastService.asmx/GetVastSettings?channelId=201&ignored${i}=1`),
        ]);
        for (const answer of answers) expect(answer.statusCode).toBeLessThan(500);
      }
      return memoryAfterGc() - before;
    };
    const half = samples.length / 2;
    // The first round fills what is bounded by design (a formatter per zone, cached days and
    // answers). inject itself keeps ~10 KB per request (light-my-request; a bare Fastify app does
    // the same), so the control round sends as many requests with one spelling and no new
    // parameter; the last round, all new spellings and parameters, may add little more than that.
    await round(samples.slice(0, half), true);
    const control = await round(
      samples.slice(0, half).map(() => 'UTC'),
      false,
    );
    const distinct = await round(samples.slice(half), true);
    const grown = distinct - control;
    expect(grown, `distinct requests grew resident memory ${Math.round(grown / 1024)} KB more than as many repeated ones`).toBeLessThan(HEAP_GROWTH_LIMIT);
  }, 240_000);
});
