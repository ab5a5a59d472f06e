// The HDHomeRun tuner under /hdhr/{key}/ (docs/linear.md: The tuner): discover.json, lineup.json,
// lineup_status.json and device.xml for Plex, Jellyfin, Emby and Channels DVR, and each channel a
// key plays as one continuous MPEG-TS, /hdhr/{key}/{channelId}.ts, made by ffmpeg from the
// channel's live HLS (src/linear/tuner.ts). Without ffmpeg every route here is 503 in words.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServerResponse } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { GroupOptions } from '../http/group.ts';
import { sendMedia } from '../http/media-body.ts';
import { numericId } from '../http/params.ts';
import { deviceXml, discoverDocument, LINEUP_STATUS, lineupDocument, type TunerDevice } from '../linear/hdhr.ts';
import { ACCESS_KEEP_MS, liveLineup, mayPlayLive } from '../linear/live-access.ts';
import { Tuners, type TunerStream } from '../linear/tuner.ts';
import { publicBase } from '../http/public-base.ts';
import { allTunersBusy, liveChannelNotFound, liveKeyNotFound, noFfmpeg, tunerSourceFailed } from './errors.ts';
import { masterPlaylistUrl } from './m3u-routes.ts';

/** A stream whose first bytes have not come within this long is refused (502): its source is not playing. */
const TUNER_START_MS = 20_000;

const keyParams = z.object({ key: z.string() });
const discoverSchema = z.object({
  FriendlyName: z.string(),
  Manufacturer: z.string(),
  ManufacturerURL: z.string(),
  ModelNumber: z.string(),
  FirmwareName: z.string(),
  FirmwareVersion: z.string(),
  DeviceID: z.string(),
  DeviceAuth: z.string(),
  TunerCount: z.number().int(),
  BaseURL: z.string(),
  LineupURL: z.string(),
});
const lineupSchema = z.array(z.object({ GuideNumber: z.string(), GuideName: z.string(), URL: z.string() }));
const statusSchema = z.object({ ScanInProgress: z.number().int(), ScanPossible: z.number().int(), Source: z.string(), SourceList: z.array(z.string()) });
const streamParams = z.object({ key: z.string(), channelId: numericId });

/** Where ffmpeg reads the channel: TUNER_SOURCE_URL, else the master playlist on this server over the address the request came in on. */
function sourceUrl(request: FastifyRequest, config: Config, key: string, channelId: number): string {
  if (config.TUNER_SOURCE_URL) return config.TUNER_SOURCE_URL.replaceAll('{key}', key).replaceAll('{channelId}', String(channelId));
  const { localAddress, localPort } = request.raw.socket;
  const address = localAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return masterPlaylistUrl(`http://${host}:${localPort ?? config.PORT}`, key, channelId);
}

/** The first bytes of the stream, or undefined when it ends (or stays silent TUNER_START_MS) first; the stream is left paused. */
function firstChunk(output: Readable): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const finish = (chunk: Buffer | undefined) => {
      clearTimeout(timer);
      output.off('data', onData).off('end', onEnd).off('close', onEnd);
      resolve(chunk);
    };
    const onData = (chunk: Buffer) => {
      output.pause();
      finish(chunk);
    };
    const onEnd = () => finish(undefined);
    const timer = setTimeout(onEnd, TUNER_START_MS);
    output.on('data', onData).once('end', onEnd).once('close', onEnd);
  });
}

export const hdhrRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const tuners = new Tuners({ ffmpegPath: config.FFMPEG_PATH, tunerCount: config.TUNER_COUNT });
  // preClose: before the server waits for its connections, which a running stream would hold open.
  app.addHook('preClose', () => tuners.stopAll());
  // Every tuner route says first whether the tuner can stream at all.
  app.addHook('onRequest', async () => {
    if (!(await tuners.ffmpegAvailable())) throw noFfmpeg(config.FFMPEG_PATH);
  });
  const noStore = { 'cache-control': 'no-store', 'access-control-allow-origin': '*' };

  async function device(request: FastifyRequest, key: string) {
    const lineup = await liveLineup(db, key, request.now);
    if (!lineup) throw liveKeyNotFound();
    const baseUrl = `${publicBase(request, config.PUBLIC_URL)}/hdhr/${key}`;
    const tuner: TunerDevice = { baseUrl, key, friendlyName: `${lineup.appName} (channelnet)`, tunerCount: tuners.tunerCount };
    return { lineup, tuner };
  }

  const docs = { params: keyParams, tags: ['Live'] };
  app.get('/:key/discover.json', { schema: { ...docs, summary: 'The tuner device (HDHomeRun discover.json)', response: { 200: discoverSchema } } }, async (request, reply) => {
    const { tuner } = await device(request, request.params.key);
    return reply.headers(noStore).send(discoverDocument(tuner));
  });
  app.get('/:key/lineup.json', { schema: { ...docs, summary: 'The tuner lineup', response: { 200: lineupSchema } } }, async (request, reply) => {
    const { tuner, lineup } = await device(request, request.params.key);
    return reply.headers(noStore).send(lineupDocument(tuner.baseUrl, lineup.channels));
  });
  app.get('/:key/lineup_status.json', { schema: { ...docs, summary: 'The tuner scan status', response: { 200: statusSchema } } }, async (request, reply) => {
    await device(request, request.params.key);
    return reply.headers(noStore).send({ ...LINEUP_STATUS, SourceList: [...LINEUP_STATUS.SourceList] });
  });
  app.get(
    '/:key/device.xml',
    { schema: { ...docs, summary: 'The tuner as a UPnP device', produces: ['application/xml'], response: { 200: z.string().describe('A UPnP device description') } } },
    async (request, reply) => {
      const { tuner } = await device(request, request.params.key);
      return reply.headers(noStore).type('application/xml; charset=utf-8').send(deviceXml(tuner));
    },
  );

  app.get(
    '/:key/:channelId.ts',
    {
      schema: {
        params: streamParams,
        tags: ['Live'],
        summary: 'A channel as a continuous MPEG-TS',
        produces: ['video/mp2t'],
        response: { 200: z.string().describe('MPEG-TS, streamed until the client leaves') },
      },
    },
    async (request, reply) => {
      const { key, channelId } = request.params;
      if (!(await mayPlayLive(db, key, channelId, request.now))) {
        throw (await liveLineup(db, key, request.now)) ? liveChannelNotFound() : liveKeyNotFound();
      }
      // A HEAD (media servers probe the URL) answers what a GET would, without taking a tuner.
      if (request.method === 'HEAD') return reply.headers(noStore).type('video/mp2t').send('');
      const stream = await tuners.tune(key, sourceUrl(request, config, key, channelId), (words) =>
        request.log.warn({ channelId, ffmpeg: words }, 'tuner stream ended with an error'),
      );
      if (stream === 'no_ffmpeg') throw noFfmpeg(config.FFMPEG_PATH);
      if (stream === 'all_tuners_busy') throw allTunersBusy(tuners.tunerCount);
      const first = await firstChunk(stream.output);
      if (!first) {
        stream.stop();
        await stream.exited;
        throw tunerSourceFailed();
      }
      watchStream(request, reply.raw, stream, (at) => mayPlayLive(db, key, channelId, at));
      const body = new PassThrough();
      body.write(first);
      stream.output.pipe(body);
      return sendMedia(reply.headers(noStore), 'video/mp2t', body);
    },
  );
};

/**
 * Stops ffmpeg when the client leaves, and when the key stops playing the channel (a link or an
 * entitlement revoked): asked again every ACCESS_KEEP_MS, on the request's clock moved on by the
 * time the stream has run.
 */
function watchStream(request: FastifyRequest, response: ServerResponse, stream: TunerStream, mayPlay: (at: Date) => Promise<unknown>): void {
  const started = Date.now();
  const check = setInterval(() => {
    mayPlay(new Date(request.now.getTime() + Date.now() - started)).then(
      (ok) => ok || stream.stop(),
      () => undefined,
    );
  }, ACCESS_KEEP_MS);
  check.unref();
  response.once('close', () => stream.stop());
  void stream.exited.then(() => clearInterval(check));
}
