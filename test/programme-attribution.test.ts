// The pure parts of programme analytics: a session split over the programmes on air, an airing's
// figures and peak, the curve's minutes (src/sessions/programme-attribution.ts, programme-analytics.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OnAir } from '../src/schedules/guide-export.ts';
import { airingFigures, attribute, deadAirPieces, peakViewers, viewerOf, type AttributedSession } from '../src/sessions/programme-attribution.ts';
import { cutTo, deadAirFigures, minuteViewers } from '../src/sessions/programme-analytics.ts';

const T = Date.parse('2026-11-20T10:00:00Z');
const s = (seconds: number) => T + seconds * 1000;
const video = (id: number) => ({ videoTubeId: id }) as OnAir['video'];
const programme = (id: number, from: number, to: number, isLive = false): OnAir => ({ start: s(from), stop: s(to), video: video(id), isLive });
/** 1: 0-600 s, 2: 600-720 s, (nothing 720-900), 3 live: 900-1800 s. */
const PROGRAMMES = [programme(1, 0, 600), programme(2, 600, 720), programme(3, 900, 1800, true)];
const session = (from: number, to: number, extra: Partial<AttributedSession> = {}): AttributedSession => ({
  id: 7,
  source: 'roku_app',
  clientId: 'c1',
  userId: '',
  channelId: 205,
  ownerId: 11,
  startedAt: s(from),
  lastHeartbeatAt: s(to),
  ...extra,
});
const split = (from: number, to: number) => attribute(session(from, to), PROGRAMMES).map((r) => [r.videoId, r.watchSeconds, (r.watchStart - T) / 1000]);

describe('attribute', () => {
  it('credits each programme the real overlap, and nothing for time with nothing on air', () => {
    expect(split(300, 1000)).toEqual([
      [1, 300, 300],
      [2, 120, 600],
      [3, 100, 900],
    ]);
    expect(split(650, 700)).toEqual([[2, 50, 650]]);
    expect(split(730, 890)).toEqual([]);
  });

  it('gives a one-heartbeat session a 0-second row of the programme on air then, and none between programmes', () => {
    expect(split(600, 600)).toEqual([[2, 0, 600]]);
    expect(split(800, 800)).toEqual([]);
  });

  it('does not credit a programme that starts at the last heartbeat', () => {
    expect(split(500, 600)).toEqual([[1, 100, 500]]);
  });

  it('keeps the airing, the live flag and the session on each row', () => {
    const [row] = attribute(session(1000, 1100), PROGRAMMES);
    expect(row).toMatchObject({ sessionId: 7, airingStart: s(900), airingStop: s(1800), isLive: true, channelId: 205, ownerId: 11, source: 'roku_app' });
  });

  it('never credits more than the session lasted, and the pieces add up to it when the air is full', () => {
    const full = [programme(1, 0, 600), programme(2, 600, 601), programme(3, 601, 5000)];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4000_000 }), fc.integer({ min: 0, max: 900_000 }), (fromMs, lengthMs) => {
        const sess = { ...session(0, 0), startedAt: T + fromMs, lastHeartbeatAt: T + fromMs + lengthMs };
        const rows = attribute(sess, full);
        const total = rows.reduce((sum, r) => sum + r.watchSeconds, 0);
        const whole = Math.floor(Math.min(sess.lastHeartbeatAt, s(5000)) / 1000) - Math.floor(sess.startedAt / 1000);
        expect(total).toBe(Math.max(0, whole));
        expect(rows.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('deadAirPieces', () => {
  const dead = (from: number, to: number) => {
    const sess = session(from, to);
    return deadAirPieces(sess, attribute(sess, PROGRAMMES)).map((p) => [(p.watchStart - T) / 1000, p.watchSeconds]);
  };

  it('is the watching outside the programmes: the gap between them, before the first and after the last', () => {
    expect(dead(300, 1000)).toEqual([[720, 180]]);
    expect(dead(-100, 100)).toEqual([[-100, 100]]);
    expect(dead(1700, 1900)).toEqual([[1800, 100]]);
    expect(dead(650, 700)).toEqual([]);
  });

  it('gives a session that watched only dead air one piece, of 0 seconds for one heartbeat', () => {
    expect(dead(730, 890)).toEqual([[730, 160]]);
    expect(dead(800, 800)).toEqual([[800, 0]]);
    expect(dead(600, 600)).toEqual([]);
  });

  it("adds up with the programmes' rows to the session's length, and never meets a programme", () => {
    // Programmes with gaps between them (and before and after), sessions anywhere around them.
    const schedule = fc.array(fc.tuple(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 1, max: 900 })), { maxLength: 8 }).map((parts) => {
      let at = 0;
      return parts.map(([gap, length], i) => {
        const p = programme(i + 1, at + gap, at + gap + length);
        at += gap + length;
        return p;
      });
    });
    fc.assert(
      fc.property(schedule, fc.integer({ min: -600_000, max: 8_000_000 }), fc.integer({ min: 0, max: 3_000_000 }), (programmes, fromMs, lengthMs) => {
        const sess = { ...session(0, 0), startedAt: T + fromMs, lastHeartbeatAt: T + fromMs + lengthMs };
        const rows = attribute(sess, programmes);
        const pieces = deadAirPieces(sess, rows);
        const sum = (list: readonly { watchSeconds: number }[]) => list.reduce((n, r) => n + r.watchSeconds, 0);
        expect(sum(rows) + sum(pieces)).toBe(Math.floor(sess.lastHeartbeatAt / 1000) - Math.floor(sess.startedAt / 1000));
        for (const piece of pieces) {
          expect(piece.watchSeconds).toBeGreaterThanOrEqual(0);
          const [a, b] = [piece.watchStart, piece.watchStart + piece.watchSeconds * 1000];
          for (const p of programmes) expect(Math.min(b, p.stop) - Math.max(a, p.start)).toBeLessThanOrEqual(0);
        }
        // Cut to any range, the pieces inside it and those outside still add up.
        const cut = T + fromMs + Math.floor(lengthMs / 2);
        const inside = pieces.flatMap((p) => cutTo(p, -Infinity, cut) ?? []);
        const after = pieces.flatMap((p) => cutTo(p, cut, Infinity) ?? []);
        expect(Math.abs(sum(inside) + sum(after) - sum(pieces))).toBeLessThanOrEqual(pieces.length);
      }),
    );
  });

  it("makes one row per channel, or per channel and source or UTC day, with a programme row's figures", () => {
    const piece = (sessionId: number, channelId: number, viewer: bigint, from: number, seconds: number, source = 'roku_app') => ({
      sessionId,
      ownerId: 11,
      channelId,
      source,
      viewer,
      watchStart: s(from),
      watchSeconds: seconds,
    });
    // 23:59:00 to 00:01:00 on channel 1 (two sessions of one device, one on another platform), and a piece on channel 2.
    const midnight = Date.parse('2026-11-21T00:00:00Z');
    const late = (midnight - T) / 1000 - 60;
    const pieces = [piece(1, 1, 1n, late, 120), piece(2, 1, 1n, late + 30, 30, 'web'), piece(3, 2, 2n, 0, 10)];
    const byChannel = deadAirFigures(pieces, 'programme');
    expect(byChannel.groups).toEqual([
      { channelId: 1, source: null, day: null, watchSeconds: 150, sessions: 2, viewers: 1, peakViewers: 1 },
      { channelId: 2, source: null, day: null, watchSeconds: 10, sessions: 1, viewers: 1, peakViewers: 1 },
    ]);
    expect(byChannel.totals).toEqual({ watchSeconds: 160, peakViewers: 1, sessionIds: [1, 2, 3], viewers: [1n, 2n] });
    expect(deadAirFigures(pieces, 'source').groups.map((g) => [g.channelId, g.source, g.watchSeconds])).toEqual([
      [1, 'roku_app', 120],
      [1, 'web', 30],
      [2, 'roku_app', 10],
    ]);
    const day = Math.floor(midnight / 86_400_000);
    expect(deadAirFigures(pieces, 'day').groups.map((g) => [g.channelId, g.day, g.watchSeconds])).toEqual([
      [1, day - 1, 90],
      [1, day, 60],
      [2, day - 1, 10],
    ]);
  });
});

describe('viewerOf', () => {
  it('is the client id on its platform, else the user id, else the session', () => {
    const base = { id: 1, source: 'roku_app', clientId: 'c1', userId: 'u1' };
    expect(viewerOf(base)).toBe(viewerOf({ ...base, id: 2, userId: 'u2' }));
    expect(viewerOf(base)).not.toBe(viewerOf({ ...base, source: 'fire_tv' }));
    expect(viewerOf({ ...base, clientId: '' })).toBe(viewerOf({ ...base, clientId: '', id: 9, source: 'web' }));
    expect(viewerOf({ ...base, clientId: '', userId: '' })).not.toBe(viewerOf({ ...base, clientId: '', userId: '', id: 2 }));
  });
});

describe('airing figures', () => {
  const row = (sessionId: number, viewer: bigint, from: number, seconds: number, source = 'roku_app') => ({
    sessionId,
    viewer,
    source,
    watchStart: s(from),
    watchSeconds: seconds,
  });

  it('counts the most devices watching at one instant; back to back is not concurrent; one device twice is one', () => {
    expect(peakViewers([row(1, 1n, 0, 60), row(2, 2n, 60, 60)])).toBe(1);
    expect(peakViewers([row(1, 1n, 0, 60), row(2, 2n, 59, 60), row(3, 3n, 30, 60)])).toBe(3);
    expect(peakViewers([row(1, 1n, 0, 600), row(2, 1n, 10, 60)])).toBe(1);
    expect(peakViewers([row(1, 1n, 0, 0), row(2, 2n, 0, 0)])).toBe(2);
    expect(peakViewers([])).toBe(0);
  });

  it('sums watch time, counts sessions and devices, for all sources and each', () => {
    const figures = airingFigures([row(1, 1n, 0, 100), row(2, 1n, 200, 50), row(3, 2n, 20, 30, 'web')]);
    expect(Object.fromEntries(figures)).toEqual({
      '': { watchSeconds: 180, sessions: 3, viewers: 2, peakViewers: 2 },
      roku_app: { watchSeconds: 150, sessions: 2, viewers: 1, peakViewers: 1 },
      web: { watchSeconds: 30, sessions: 1, viewers: 1, peakViewers: 1 },
    });
  });
});

describe('minuteViewers', () => {
  const span = (viewer: bigint, from: number, seconds: number) => ({ viewer, watchStart: s(from), watchSeconds: seconds });

  it('counts each device once in every minute its watching touches', () => {
    expect(minuteViewers([span(1n, 30, 60), span(2n, 60, 120), span(1n, 100, 10)], T, 4)).toEqual([1, 2, 1, 0]);
  });

  it('puts a 0-second watch in its minute, and leaves out what is outside the day', () => {
    expect(minuteViewers([span(1n, 125, 0), span(2n, -30, 0), span(3n, -90, 60), span(4n, 240, 30)], T, 4)).toEqual([0, 0, 1, 0]);
  });
});
