// Linear output in the Studio console (issue 34, item 6), in a real Chromium against a real
// channelnet: a guide key made on the Apps screen, a Custom HLS video's ingest (ready, and an
// encrypted one refused in words) with Refresh, a channel's Linear output tab (turned on, a window
// refused beside its field, saved, coverage with its reasons, the player addresses that work, a
// stale save, the unsaved-changes guard), and the Watch view playing the channel's own stream
// through hls.js, then a revoked key said in words.
//
// NEEDS THE SERVER SIDE OF ISSUE 34 (built in parallel; this file is written against its
// contract and runs once it is merged):
//   [ingest]  `hls` on GET /api/v1/studio/videos/{id}, POST /videos/{id}/hls/refresh, the ingest job
//   [linear]  GET/PUT /api/v1/studio/channels/{id}/linear (ETag, If-Match, 412, 422 details)
//   [live]    /api/v1/live/{key}/channels.m3u and /{channelId}/master.m3u8
//   [origins] MEDIA_FETCH_ALLOW_ORIGINS in Config (the loopback fixture origin), passed to
//             consoleRoutes as `mediaOrigins` in src/app.ts so the console's policy lets hls.js
//             fetch the fixture's plain-HTTP segments
// Each step below names what it needs. The media is made here by ffmpeg (lavfi test pattern and
// tone, 2 s TS segments) and served from a loopback origin; nothing is downloaded.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { consoleServer, openScreen, screenshot, type ConsoleServer } from './support/console.ts';

const ZONE = 'America/New_York';
const SECONDS = 30;

/** A 30 s H.264/AAC video as TS HLS (2 s segments) with a one-variant master, and an encrypted copy. */
function makeMedia(dir: string): void {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    String(SECONDS),
    '-c:v',
    'libx264',
    '-profile:v',
    'baseline',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '50',
    '-keyint_min',
    '50',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-f',
    'hls',
    '-hls_time',
    '2',
    '-hls_playlist_type',
    'vod',
    '-hls_segment_filename',
    path.join(dir, 'seg%03d.ts'),
    path.join(dir, 'media.m3u8'),
  ]);
  writeFileSync(path.join(dir, 'master.m3u8'), '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.42c01e,mp4a.40.2"\nmedia.m3u8\n');
  const media = readFileSync(path.join(dir, 'media.m3u8'), 'utf8');
  writeFileSync(path.join(dir, 'locked.m3u8'), media.replace('#EXTINF', '#EXT-X-KEY:METHOD=AES-128,URI="key.bin"\n#EXTINF'));
}

/** The creator's origin: the files, with CORS open as a CDN's would be. */
async function serveOrigin(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const name = path.basename(new URL(request.url ?? '/', 'http://x').pathname);
    try {
      const body = readFileSync(path.join(dir, name));
      const type = name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t';
      response.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' }).end(body);
    } catch {
      response.writeHead(404, { 'access-control-allow-origin': '*' }).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('Studio console: linear output', { timeout: 240_000 }, () => {
  let server: ConsoleServer;
  let media: { server: Server; origin: string };
  let dir: string;
  let page: Page;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'console-linear-'));
    makeMedia(dir);
    media = await serveOrigin(dir);
    const catalog: any = smallCatalog();
    catalog.videos.push(
      {
        id: 5101,
        ownerId: 11,
        title: 'Harbour loop',
        durationSeconds: SECONDS,
        providerName: 'Custom',
        providerVideoId: 'harbour-loop',
        streamUrl: `${media.origin}/master.m3u8`,
        categoryId: 1,
      },
      {
        id: 5102,
        ownerId: 11,
        title: 'Locked film',
        durationSeconds: SECONDS,
        providerName: 'Custom',
        providerVideoId: 'locked-film',
        streamUrl: `${media.origin}/locked.m3u8`,
        categoryId: 1,
      },
    );
    // Alice News: the loop from a minute ago for 10 minutes, then YouTube's "Morning news" (airs the slate).
    const start = DateTime.now().setZone(ZONE).minus({ minutes: 1 }).startOf('minute').toFormat("yyyy-MM-dd'T'HH:mm:ss");
    catalog.channels.find((c: any) => c.id === 201).schedules.push({ id: 9101, startTime: start, videoIds: [...Array(20).fill(5101), 5001] });
    // A free app carrying Alice News: its key lists and plays it (the paid mobile app's would not).
    catalog.apps.find((a: any) => a.id === 303).channels = [{ channelId: 201, sorting: 1, channelNumber: '7' }];
    // [origins] the parsed form of MEDIA_FETCH_ALLOW_ORIGINS (a list of origins) once Config has it.
    server = await consoleServer(catalog, { MEDIA_FETCH_ALLOW_ORIGINS: [media.origin] });
    page = await server.signedIn(OWNER.username, OWNER.password);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => media?.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a guide key on the Apps screen, which the tab keeps for linear output', async () => {
    await page.goto('/studio/#/apps/roku');
    await page.getByRole('button', { name: 'Make a guide key' }).click();
    await page.getByLabel('New guide URL', { exact: true }).waitFor();
    expect(await page.evaluate(`sessionStorage.getItem('channelnet.studio.guide-keys')`)).toMatch(/^\{"roku":"[\w-]{43}"\}$/);
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('[ingest] shows a video ready for linear streams after Refresh, and an encrypted one refused in words', async () => {
    const ingest = async (title: string) => {
      await openScreen(page, 'Videos');
      await page.getByRole('button', { name: `Edit ${title}` }).click();
      const section = page.getByRole('dialog', { name: 'Edit video' }).getByLabel('Linear output ingest');
      await section.getByRole('button', { name: 'Refresh' }).click();
      return section;
    };
    const ready = await ingest('Harbour loop');
    await ready.getByText(/^Ready for linear streams: 1 rendition, 15 segments, 30 s, segments up to 2 s\.$/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'linear-video-ingest');
    await page.keyboard.press('Escape');
    const locked = await ingest('Locked film');
    await locked.getByText(/^Cannot air as itself in linear streams\. The playlist is encrypted; linear output takes unencrypted HLS only\./).waitFor({ timeout: 30_000 });
    await screenshot(page, 'linear-video-refused');
    await page.keyboard.press('Escape');
  });

  it('[linear] turns linear output on: a short window refused beside its field, saved, coverage and its reasons, addresses that play', async () => {
    await page.goto('/studio/#/channels/201');
    await page.getByRole('tab', { name: 'Linear output' }).click();
    const form = page.getByRole('form', { name: 'Linear output settings' });
    await form.getByLabel('Linear output on').check();
    await form.getByLabel('Target duration (seconds)').fill('4');
    await form.getByLabel('Window (seconds)').fill('10');
    await form.getByText('At least 3 target durations: 12 s or more.').waitFor();
    expect(await form.getByRole('button', { name: 'Save linear output' }).isDisabled()).toBe(true);
    await form.getByLabel('Window (seconds)').fill('60');
    await form.getByRole('button', { name: 'Save linear output' }).click();
    await form.getByRole('status').getByText('Saved: linear output is on.').waitFor();

    const token = await server.login(OWNER.username, OWNER.password);
    const stored = await server.api('GET', '/api/v1/studio/channels/201/linear', { token });
    expect(stored.body.data).toMatchObject({ enabled: true, targetDurationSeconds: 4, windowSeconds: 60 });
    // The ladder defaults to the first ready video's: one rung, shown as such.
    expect(stored.body.data.ladder).toHaveLength(1);
    await page.getByRole('list', { name: 'Ladder rungs' }).getByText('640×360 · 800 kbit/s · avc1.42c01e,mp4a.40.2').waitFor();

    // Coverage: the loop plays as itself, YouTube's programme and the gaps after it air the slate.
    expect(await page.getByLabel('Coverage', { exact: true }).innerText()).toMatch(/^\d+(\.\d)?% of the next 7 days' airtime \(.+ of .+\) plays as itself\.$/);
    const reasons = page.getByRole('list', { name: 'Why the rest airs the slate' });
    await reasons.getByText('YouTube, Vimeo and direct files cannot be stitched: the slate airs, the guide still lists the programme.').waitFor();
    await reasons.getByText('Nothing is scheduled: the slate airs.').waitFor();
    await page.getByRole('table', { name: 'Programmes that air the slate' }).getByText('Morning news').first().waitFor();

    // [live] The addresses carry the tab's key, and the M3U and master answer as players read them.
    const m3u = (await page.getByLabel('M3U playlist address', { exact: true }).innerText()).trim();
    const master = (await page.getByLabel("This channel's stream address", { exact: true }).innerText()).trim();
    expect(m3u).toMatch(new RegExp(`^${server.origin}/api/v1/live/[\\w-]{43}/channels\\.m3u$`));
    expect(master).toMatch(new RegExp(`^${server.origin}/api/v1/live/[\\w-]{43}/201/master\\.m3u8$`));
    expect((await page.getByLabel('HDHomeRun tuner address', { exact: true }).innerText()).trim()).toMatch(/\/hdhr\/[\w-]{43}$/);
    const playlist = await server.api('GET', new URL(m3u).pathname);
    expect(playlist.status).toBe(200);
    expect(playlist.text).toContain(`/201/master.m3u8`);
    expect((await server.api('GET', new URL(master).pathname)).text).toContain('#EXT-X-STREAM-INF');
    await screenshot(page, 'linear-panel');
  });

  it('[linear] says a stale save in words and asks before leaving unsaved edits', async () => {
    // Another window saves first: this one's save is refused with 412, what was typed is kept.
    const token = await server.login(OWNER.username, OWNER.password);
    const etag = (await fetch(`${server.origin}/api/v1/studio/channels/201/linear`, { headers: { authorization: `Bearer ${token}` } })).headers.get('etag')!;
    const other = await server.api('PUT', '/api/v1/studio/channels/201/linear', {
      token,
      headers: { 'if-match': etag },
      body: { enabled: true, targetDurationSeconds: 4, windowSeconds: 48 },
    });
    expect(other.status).toBe(200);
    const form = page.getByRole('form', { name: 'Linear output settings' });
    await form.getByLabel('Window (seconds)').fill('72');
    await form.getByRole('button', { name: 'Save linear output' }).click();
    await form
      .getByRole('alert')
      .getByText(/Someone else changed this since you opened it/)
      .waitFor();
    expect(await form.getByLabel('Window (seconds)').inputValue()).toBe('72');
    await screenshot(page, 'linear-stale-save');

    // Unsaved: another tab of the channel asks first; refused, the panel stays with the edit.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('tab', { name: 'Details' }).click();
    expect(asked).toEqual(['You have unsaved changes on this screen. Leave without saving them?']);
    expect(await form.getByLabel('Window (seconds)').inputValue()).toBe('72');
    await form.getByRole('button', { name: 'Undo changes' }).click();
  });

  it('[live][origins] plays the channel’s own stream in Watch through hls.js, and says a refused key in words', async () => {
    await page.goto('/studio/#/watch/201');
    const video = page.getByLabel('Alice News (linear stream)');
    await video.waitFor();
    // Real playback in real time: the player moves past 3 s of the stream with no fatal error.
    // (Polled through evaluate: waitForFunction's string predicates are eval, which the console's policy refuses.)
    const position = () => page.evaluate(`document.querySelector('video[aria-label="Alice News (linear stream)"]')?.currentTime ?? 0`) as Promise<number>;
    await expect.poll(position, { timeout: 45_000, interval: 500 }).toBeGreaterThan(3);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'linear-watch');

    // A key the service does not know (a revoked one answers the same): the stream is refused, in words.
    await page.evaluate(`sessionStorage.setItem('channelnet.studio.guide-keys', JSON.stringify({ pasted: 'x'.repeat(43) }))`);
    await page.reload();
    await page
      .getByRole('alert')
      .getByText(/^The channel's stream was refused \(\d{3}\): the guide key may have been replaced or revoked/)
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'linear-watch-refused');
    // ... and offers each programme's own video instead (issue 36 item 7): the stream's player goes.
    await page.getByRole('alert').getByRole('button', { name: "Play the programme's own video instead" }).click();
    await page.getByLabel('Alice News (linear stream)').waitFor({ state: 'detached' });
  });
});
