// A real shared cache in front (issue 35 item 7): Debian's Varnish running deploy/varnish.vcl before
// two `channelnet serve` processes on one PostgreSQL database. A rotating viewer load (Custom lists,
// guides, settings, VAST, Legacy) is served from the cache on at least 95% of its repeats; what
// depends on the caller (a paid app's list, a pay-per-view buyer's VOD, REST behind a Bearer) never
// reaches another caller through it; an edit shows through within the max-age the answer carried.
// On the Custom fixture (test/support/custom.ts), read with the test clock at TEST_NOW.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importCatalog } from '../src/catalog/import.ts';
import { OWNER, VIEWER } from './fixtures/catalog.ts';
import { TEST_NOW } from './support/app.ts';
import { BASE, customCatalog } from './support/custom.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';
import { startServerProcess, type ServerProcess } from './support/processes.ts';

const VARNISHD = '/usr/sbin/varnishd';
const VCL = new URL('../deploy/varnish.vcl', import.meta.url);
/** The instances' ANSWER_MAX_AGE_SECONDS: long enough for the load to run within it, short enough to wait for an edit. */
const MAX_AGE = 8;
const FIRETV = { 'platform-id': 'fire-tv' };

if (!existsSync(VARNISHD)) console.warn(`test/varnish.test.ts skipped: ${VARNISHD} is absent (apt-get install varnish; CI installs it)`);

/** A port free on loopback now (varnishd takes its listen address on the command line). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe.runIf(process.env.TEST_DATABASE_URL && existsSync(VARNISHD))('Varnish (deploy/varnish.vcl) in front of two instances', () => {
  let database: TestDatabase;
  let instances: ServerProcess[] = [];
  let varnish: ChildProcess | undefined;
  let varnishOutput = '';
  let workDir: string;
  let front: string;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    await importCatalog(database.db, customCatalog(), { replace: false, now: new Date(TEST_NOW) });
    const env = {
      DATABASE_URL: database.url!,
      DEMO_ON_EMPTY: 'false',
      CHANNELNET_TEST_CLOCK: '1',
      ANSWER_MAX_AGE_SECONDS: String(MAX_AGE),
      // Every request reaches the instances from Varnish's one address; the machine is shared.
      RATE_LIMIT_ENABLED: 'false',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      GUIDE_WARM_DAYS: '0',
    };
    instances = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const ports = instances.map((instance) => new URL(instance.url).port);
    // The shipped VCL with its two backends' ports replaced, as an operator would edit them.
    const vcl = readFileSync(VCL, 'utf8').replace('.port = "8081";', `.port = "${ports[0]}";`).replace('.port = "8082";', `.port = "${ports[1]}";`);
    expect(vcl).toContain(`.port = "${ports[1]}";`);
    workDir = mkdtempSync(join(tmpdir(), 'channelnet-varnish-'));
    writeFileSync(join(workDir, 'front.vcl'), vcl);
    const port = await freePort();
    front = `http://127.0.0.1:${port}`;
    // -j none: no privilege separation (as root, the default jail's user cannot write the work directory).
    varnish = spawn(VARNISHD, ['-F', '-j', 'none', '-n', workDir, '-a', `127.0.0.1:${port}`, '-f', join(workDir, 'front.vcl'), '-s', 'malloc,64m'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    varnish.stdout!.on('data', (d) => (varnishOutput += d));
    varnish.stderr!.on('data', (d) => (varnishOutput += d));
    await vi.waitFor(
      async () => {
        if (varnish!.exitCode !== null) throw new Error(`varnishd exited:\n${varnishOutput}`);
        expect((await fetch(`${front}/readyz`)).status).toBe(200);
      },
      { timeout: 30_000, interval: 100 },
    );
  }, 60_000);

  afterAll(async () => {
    if (varnish && varnish.exitCode === null) {
      const exited = new Promise((done) => varnish!.once('exit', done));
      varnish.kill('SIGTERM');
      await exited;
    }
    await Promise.all(instances.map((instance) => instance.stop()));
    await database?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${front}${path}`, { headers: { 'x-test-now': TEST_NOW, ...headers } });
  const cacheOf = (response: Response) => response.headers.get('x-cache');
  const maxAgeOf = (response: Response) => Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1]);
  const studioToken = async () =>
    (
      (await (
        await fetch(`${front}/api/v1/rest/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
        })
      ).json()) as any
    ).data.authToken as string;

  it("serves at least 95% of a rotating viewer load's repeats from the cache, each the bytes an instance sends", async () => {
    const keys: [string, Record<string, string>][] = [
      ...['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo'].map((zone): [string, Record<string, string>] => [`${BASE}/users/11/channels?timezone=${zone}`, FIRETV]),
      [`${BASE}/users/11/channels`, { ...FIRETV, timezone: 'Europe/Paris' }],
      [`${BASE}/users/11/categories`, FIRETV],
      [`${BASE}/users/11/languages`, FIRETV],
      ...[201, 204].flatMap((channel) =>
        ['2026-11-21', '2026-11-22'].flatMap((day) =>
          ['UTC', 'America/New_York'].map((zone): [string, Record<string, string>] => [
            `${BASE}/users/11/channels/video?channels_ids=${channel}&dates=${day}&timezone=${zone}`,
            FIRETV,
          ]),
        ),
      ),
      [`${BASE}/users/11/app_settings`, FIRETV],
      [`${BASE}/users/11/app_settings`, { 'platform-id': 'roku' }],
      [`${BASE}/users/11/settings`, {}],
      [`${BASE}/channels/201/vast`, { 'platform-id': 'roku' }],
      ['/WebServices/TVAppGeneratorService.asmx/GetUserTVApp?userId=11&platform=fire-tv&skipImages=true', {}],
      ['/WebServices/RokuAppGeneratorService.asmx/GetUserRokuApp?userId=11', {}],
    ];
    const ROUNDS = 10;
    const first = new Map<number, { body: string; etag: string | null }>();
    let repeats = 0;
    let hits = 0;
    const missed: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, [path, headers]] of keys.entries()) {
        // Each viewer its own device and client: none of that splits a public answer.
        const response = await get(path, { ...headers, 'device-id': `tv-${round}-${index}`, 'accept-encoding': round % 2 ? 'gzip' : 'identity' });
        const body = await response.text();
        expect(response.status, `${path} ${body}`).toBe(200);
        if (round === 0) {
          expect(response.headers.get('cache-control'), path).toMatch(/^public, max-age=/);
          expect(maxAgeOf(response), path).toBeGreaterThan(0);
          // Every key is new, so its first ask is fetched: a hit would be another key's object (Vary ignored).
          expect(cacheOf(response), `${path} ${JSON.stringify(headers)}`).toBe('MISS');
          first.set(index, { body, etag: response.headers.get('etag') });
          continue;
        }
        expect(body, path).toBe(first.get(index)!.body);
        repeats++;
        if (cacheOf(response) === 'HIT') {
          hits++;
          // Varnish's own word: a hit names this request and the one that fetched the object.
          expect(response.headers.get('x-varnish'), path).toMatch(/^\d+ \d+$/);
        } else missed.push(`${round} ${path} ${cacheOf(response)}`);
      }
    }
    expect(hits / repeats, missed.join('\n')).toBeGreaterThanOrEqual(0.95);
    if (process.env.VARNISH_REPORT) console.log(`varnish: ${hits} hits of ${repeats} repeats over ${keys.length} keys`);
    // Revalidation through the cache: the ETag an instance gave answers 304 without a body.
    const [path, headers] = keys[0]!;
    const revalidated = await get(path, { ...headers, 'accept-encoding': 'identity', 'if-none-match': first.get(0)!.etag! });
    expect([revalidated.status, await revalidated.text()]).toEqual([304, '']);
  });

  it('stores no answer the service gave no max-age (never a default TTL)', async () => {
    // A route the read model does not cover yet answers without Cache-Control: every ask reaches an instance.
    const LIVE = `${BASE}/users/11/channels/204/live?date=2026-11-21`;
    for (let i = 0; i < 3; i++) {
      const response = await get(LIVE, FIRETV);
      expect([response.status, response.headers.get('cache-control'), cacheOf(response)]).toEqual([200, null, 'PASS']);
      expect(response.headers.get('x-varnish')).toMatch(/^\d+$/); // one id: fetched for this request
    }
  });

  it("never serves a paid app's, a pay-per-view buyer's or an account's answer to another caller", async () => {
    const LIST = `${BASE}/users/11/channels`;
    const PAID = { 'platform-id': 'android' };
    for (let i = 0; i < 3; i++) {
      const subscriber = await get(LIST, { ...PAID, 'device-id': 'device-1' });
      expect([subscriber.status, subscriber.headers.get('cache-control'), cacheOf(subscriber)]).toEqual([200, 'private, no-store', expect.not.stringMatching(/HIT/)]);
      for (const intruder of [{ ...PAID, 'device-id': 'device-9' }, PAID]) {
        const refused = await get(LIST, intruder);
        expect([refused.status, cacheOf(refused)], JSON.stringify(intruder)).toEqual([403, expect.not.stringMatching(/HIT/)]);
      }
    }
    // Android TV sells 201's VOD by pay-per-view: device-2's unlock of 5002 stays its own.
    const VOD = `${BASE}/users/11/channels/vod?channels_ids=201`;
    const streamOf = async (device: string) =>
      ((await (await get(VOD, { 'platform-id': 'android-tv', 'device-id': device })).json()) as any).data.find((row: any) => row.videoTubeId === 5002).streamUrl;
    for (let i = 0; i < 3; i++) {
      expect(await streamOf('device-2')).not.toBeNull();
      expect(await streamOf('device-3')).toBeNull();
    }
    // REST answers are the account's (private): victor never gets alice's channels, before or after hers.
    const login = async (username: string, password: string) =>
      (
        (await (
          await fetch(`${front}/api/v1/rest/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) })
        ).json()) as any
      ).data.authToken as string;
    const alice = await login(OWNER.username, OWNER.password);
    const victor = await login(VIEWER.username, VIEWER.password);
    const channels = async (token: string) =>
      ((await (await get('/api/v1/rest/channels', { authorization: `Bearer ${token}` })).json()) as any).data.map((c: any) => c.channelTubeId);
    for (let i = 0; i < 2; i++) {
      expect(await channels(alice)).toContain(201);
      expect(await channels(victor)).not.toContain(201);
    }
    expect((await get('/api/v1/rest/channels')).status).toBe(401);
    // A public answer asked with Authorization is looked up under that Authorization only.
    const SETTINGS = `${BASE}/users/11/settings`;
    await get(SETTINGS);
    expect(cacheOf(await get(SETTINGS))).toBe('HIT');
    expect(cacheOf(await get(SETTINGS, { authorization: `Bearer ${alice}` }))).toBe('MISS');
    expect(cacheOf(await get(SETTINGS, { authorization: `Bearer ${alice}` }))).toBe('HIT');
    expect(cacheOf(await get(SETTINGS, { authorization: `Bearer ${victor}` }))).toBe('MISS');
  });

  it('shows an edit through the cache within the max-age the cached answer carried', async () => {
    const LIST = `${BASE}/users/11/channels?timezone=UTC&category_id=1`;
    const nameOf = async () => {
      const response = await get(LIST, FIRETV);
      expect(response.status).toBe(200);
      return { name: ((await response.json()) as any).data.find((c: any) => c.id === 201)?.name as string, response };
    };
    await nameOf();
    const { name, response } = await nameOf();
    expect([cacheOf(response), name]).toEqual(['HIT', 'Alice News']);
    const maxAge = maxAgeOf(response);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(MAX_AGE);
    // The edit goes through the cache too (a PATCH passes).
    const patched = await fetch(`${front}/api/v1/studio/channels/201`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await studioToken()}`, 'x-test-now': TEST_NOW },
      body: JSON.stringify({ name: 'Alice Headlines' }),
    });
    expect(patched.status, await patched.text()).toBe(200);
    // The cached answer was at most max-age old now; it is gone when its max-age (plus a fetch) has passed.
    await expect.poll(async () => (await nameOf()).name, { timeout: maxAge * 1000 + 1500, interval: 100 }).toBe('Alice Headlines');
  });
});
