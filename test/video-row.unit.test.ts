// The guide and VOD rows written as text (videoPageJson) against the route's response schema:
// the same bytes as the schema's serializer and JSON.stringify write from presentVideoRow's
// objects, for any catalog text (quotes, backslashes, control characters, lone surrogates,
// U+2028), withheld rows, VOD rows and fractional durations; and a video edited under the same
// id is written with its new text (the escaped text is kept by video id).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GuideRow } from '../src/channels/guide-rows.ts';
import { serializerFor } from '../src/http/serializer.ts';
import { videoPageResponse } from '../src/custom/schemas.ts';
import { presentVideoRow, videoPageJson } from '../src/presenters/video-row.ts';

const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', 'a"b\\c', '\u2028\u2029', '\ud800', '</script>', 'Café 東京 🎬'));
const ZONES = ['UTC', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe'];

const row: fc.Arbitrary<GuideRow> = fc
  .record({
    channelId: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    videoTubeId: fc.integer({ min: 1, max: 50 }),
    title: text,
    providerVideoId: text,
    providerName: text,
    thumbnailUrl: text,
    streamUrl: fc.option(text),
    withheld: fc.boolean(),
    isVod: fc.boolean(),
    userId: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    durationSeconds: fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.double({ min: -1, max: 100_000, noNaN: true })),
    start: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
    length: fc.integer({ min: 0, max: 86_400_000 }),
    zone: fc.constantFrom(...ZONES),
    k: fc.integer({ min: 1, max: 30 }),
  })
  .map((r) => ({
    customId: r.isVod ? `${r.channelId}-${r.videoTubeId}-vod` : `${r.channelId}-${r.videoTubeId}-${r.k}`,
    video: { videoTubeId: r.videoTubeId, title: r.title, providerVideoId: r.providerVideoId, providerName: r.providerName, thumbnailUrl: r.thumbnailUrl, streamUrl: r.streamUrl },
    userId: r.userId,
    channelId: r.channelId,
    durationSeconds: r.durationSeconds,
    start: r.start,
    end: r.start + r.length,
    zone: r.zone,
    streamUrl: r.withheld ? null : r.streamUrl,
    isVod: r.isVod,
  }));

const page = (data: GuideRow[]) => ({
  data,
  links: { first: '/api/v1/x?a="1"&page=1', last: '/api/v1/x?page=2', prev: null, next: '/api/v1/x?page=2' },
  meta: { current_page: 1, from: data.length > 0 ? 1 : null, last_page: 2, path: '/api/v1/x', per_page: 100, to: data.length > 0 ? data.length : null, total: 150 },
});
const schemaWritten = (p: ReturnType<typeof page>) => serializerFor(videoPageResponse[200])({ ...p, data: p.data.map(presentVideoRow) });

describe('videoPageJson', () => {
  it('writes what the response schema writes from presented rows, byte for byte, for any catalog text', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), (rows) => {
        const p = page(rows);
        const written = videoPageJson(p);
        if (written !== schemaWritten(p) || written !== JSON.stringify({ ...p, data: p.data.map(presentVideoRow) })) expect(written).toBe(schemaWritten(p));
      }),
      { seed: 20261129, numRuns: 400 },
    );
  });

  it('writes a video edited under the same id with its new text, and an empty page', () => {
    const base: GuideRow = {
      customId: '5-77-1',
      video: { videoTubeId: 77, title: 'Before', providerVideoId: 'abc', providerName: 'YouTube', thumbnailUrl: 'https://img/1.jpg', streamUrl: 'https://v/1.m3u8' },
      userId: 1,
      channelId: 5,
      durationSeconds: 90.9,
      start: Date.UTC(2026, 10, 29, 10),
      end: Date.UTC(2026, 10, 29, 10, 1, 30),
      zone: 'America/New_York',
      streamUrl: 'https://v/1.m3u8',
      isVod: false,
    };
    expect(JSON.parse(videoPageJson(page([base]))).data[0]).toMatchObject({ title: 'Before', duration: 90, startDate: '2026-11-29 05:00:00', streamUrl: 'https://v/1.m3u8' });
    const edited = { ...base, video: { ...base.video, title: 'After "quoted"', streamUrl: 'https://v/2.m3u8' }, streamUrl: 'https://v/2.m3u8' };
    expect(JSON.parse(videoPageJson(page([edited]))).data[0]).toMatchObject({ title: 'After "quoted"', streamUrl: 'https://v/2.m3u8' });
    expect(videoPageJson(page([]))).toBe(schemaWritten(page([])));
  });
});
