// Watch (#/watch/{channelId}): the channel as a viewer sees it now, joined in progress: the
// YouTube or Vimeo embed started at the programme's position, or a <video> for direct media and
// live stream URIs seeked there; at the programme's end the next one follows. Nothing on air
// says when the next programme starts. With linear output on and a guide key in this tab, it
// plays the channel's own HLS stream instead (HlsPlayer), one player across programmes.
// A programme whose player fails (an embed's error, a playlist or file that does not load, a
// file that does not decode) says what failed in words and offers to play the next programme now.
import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useAllChannels } from '../../api/channels.ts';
import { useGuideKeys } from '../../api/guide-keys.ts';
import { useLinear } from '../../api/linear.ts';
import type { NowOnAir } from '../../api/types.ts';
import { useNowOnAir } from '../../api/watch.ts';
import { navigate } from '../../router.ts';
import { FormAlert } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { ChannelPicker } from '../schedule/ChannelPicker.tsx';
import { clockOf } from '../schedule/geometry.ts';
import { liveUrls } from '../linear/urls.ts';
import { HlsPlayer } from './HlsPlayer.tsx';
import { embedErrorWords, mediaErrorWords, videoHlsWords } from './failure-words.ts';
import { playerFor, VIMEO_PLAYER, YOUTUBE_EMBED, type Player } from './plan.ts';

export function WatchScreen({ rest }: { rest: string[] }) {
  const channels = useAllChannels();
  const channelId = rest[0] ? Number(rest[0]) : channels.data?.[0]?.id;
  const channel = channels.data?.find((c) => c.id === channelId);
  return (
    <Stack>
      <Title order={2}>Watch</Title>
      {channels.error ? <FormAlert error={channels.error} /> : null}
      <ChannelPicker channels={channels.data} value={channelId} onChange={(id) => navigate('watch', id)} />
      {channels.data?.length === 0 ? <Text>No channels yet: create one first.</Text> : null}
      {channel ? <OnAir key={channel.id} channelId={channel.id} name={channel.name} /> : null}
    </Stack>
  );
}

function OnAir({ channelId, name }: { channelId: number; name: string }) {
  const now = useNowOnAir(channelId);
  // A failed linear read (an older server, a refusal) leaves Watch as it was: the programme's own player.
  const linear = useLinear(channelId);
  const held = Object.values(useGuideKeys());
  const on = linear.data?.data.enabled === true;
  // When the channel's own stream fails, the creator may play each programme's own video instead.
  const [ownVideos, setOwnVideos] = useState(false);
  const src = on && held[0] && !ownVideos ? liveUrls(window.location.origin, held[0], channelId).master : undefined;
  return (
    <Stack gap="xs">
      {on && !src && !ownVideos ? (
        <Alert color="blue" role="status">
          Linear output is on. To watch the channel's own stream here, make a guide key on the Apps screen or paste one under the channel's Linear output; until then Watch plays
          each programme's own video.
        </Alert>
      ) : null}
      {src ? <HlsPlayer key={src} src={src} title={name} onInstead={() => setOwnVideos(true)} /> : null}
      <Loaded query={now} label="Loading what is on air">
        {(answer) => <Programme answer={answer} name={name} answeredAt={now.dataUpdatedAt} withPlayer={!src} />}
      </Loaded>
    </Stack>
  );
}

function Programme({ answer, name, answeredAt, withPlayer }: { answer: NowOnAir; name: string; answeredAt: number; withPlayer: boolean }) {
  const { now, next, timezone } = answer;
  const at = (instant: string) => `${clockOf(Date.parse(instant), timezone)} (${timezone})`;
  const upNext = next ? (
    <Text size="sm">
      Next: {next.title}, {next.startTime.slice(0, 10)} at {at(next.start)}
    </Text>
  ) : (
    <Text size="sm">Nothing more is scheduled.</Text>
  );
  if (!now) {
    return (
      <Alert color="gray" title={`Nothing is on air on ${name} now`} role="status">
        {upNext}
        {next ? <Text size="sm">This view switches to it by itself when it starts.</Text> : null}
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Badge color={now.isLive ? 'red' : 'blue'}>{now.isLive ? 'Live' : 'On air'}</Badge>
        <Text fw={600} aria-label="On air now">
          {now.title}
        </Text>
        <Text size="sm" c="dimmed">
          {at(now.start)} – {clockOf(Date.parse(now.end), timezone)}
        </Text>
      </Group>
      {/* Keyed by the programme: a re-ask during it keeps the player; the next programme replaces it. */}
      {withPlayer ? <Playing key={`${now.videoId}-${now.start}`} now={now} next={next} timezone={timezone} joinedAt={answeredAt} /> : null}
      {upNext}
    </Stack>
  );
}

/**
 * The programme on air in its player; when the player fails, what failed and a button that plays
 * the next programme now (from its start), ahead of its time. Only the one next programme is
 * known: when it fails too, the failure is said and nothing further is offered.
 */
function Playing({ now, next, timezone, joinedAt }: { now: NonNullable<NowOnAir['now']>; next: NowOnAir['next']; timezone: string; joinedAt: number }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [early, setEarly] = useState<number | null>(null);
  const [earlyFailure, setEarlyFailure] = useState<string | null>(null);
  if (early !== null && next) {
    return (
      <Stack gap="xs">
        <Text size="sm" role="status">
          Playing the next programme now, ahead of its time: {next.title} (on air at {clockOf(Date.parse(next.start), timezone)})
        </Text>
        {earlyFailure ? <Failed words={earlyFailure} title={next.title} /> : null}
        <PlayerView player={playerFor(next, next.offsetSeconds)} title={next.title} joinedAt={early} onFail={setEarlyFailure} />
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      {failure ? <Failed words={failure} title={now.title} next={next} onNext={() => setEarly(Date.now())} /> : null}
      <PlayerView player={playerFor(now, now.positionSeconds)} title={now.title} joinedAt={joinedAt} onFail={setFailure} />
    </Stack>
  );
}

/** What failed, taking the focus so it is read at once, and the next programme offered. */
function Failed({ words, title, next, onNext }: { words: string; title: string; next?: NowOnAir['next']; onNext?: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest' });
  }, [words]);
  return (
    <Alert ref={box} color="red" role="alert" title={`${title} cannot play`}>
      <Stack gap="xs">
        <Text size="sm">{words}</Text>
        {next && onNext ? (
          <Group>
            <Button size="xs" onClick={onNext}>
              Play the next programme: {next.title}
            </Button>
          </Group>
        ) : next === null ? (
          <Text size="sm">Nothing more is scheduled after it.</Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

const FRAME = { width: '100%', maxWidth: 960, aspectRatio: '16 / 9', border: 0, display: 'block' } as const;

type OnFail = (words: string) => void;

function PlayerView({ player, title, joinedAt, onFail }: { player: Player; title: string; joinedAt: number; onFail: OnFail }) {
  if (player.kind === 'none') return <Alert color="yellow">{player.reason}</Alert>;
  if (player.kind === 'media') return <MediaPlayer src={player.src} position={player.position} title={title} joinedAt={joinedAt} onFail={onFail} />;
  return <EmbedPlayer kind={player.kind} src={player.src} title={title} onFail={onFail} />;
}

/** The origins whose messages are the embeds' (the frame's own window is checked too). */
const EMBED_ORIGIN = { youtube: new URL(YOUTUBE_EMBED).origin, vimeo: new URL(VIMEO_PLAYER).origin };

/**
 * A YouTube or Vimeo embed, listening for the errors it posts: YouTube's once told the page
 * listens (`enablejsapi=1` in its address, then a "listening" message), Vimeo's once asked for
 * its error event.
 */
function EmbedPlayer({ kind, src, title, onFail }: { kind: 'youtube' | 'vimeo'; src: string; title: string; onFail: OnFail }) {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.origin !== EMBED_ORIGIN[kind] || event.source !== frame.current?.contentWindow) return;
      const words = embedErrorWords(kind, event.data);
      if (words) onFail(words);
      // Vimeo answers "ready" when it can take the request for its error event.
      else if (kind === 'vimeo' && /"event":"ready"/.test(typeof event.data === 'string' ? event.data : JSON.stringify(event.data))) ask();
    };
    const ask = () => {
      const target = frame.current?.contentWindow;
      if (!target) return;
      const message = kind === 'youtube' ? { event: 'listening', id: 1, channel: 'widget' } : { method: 'addEventListener', value: 'error' };
      target.postMessage(JSON.stringify(message), EMBED_ORIGIN[kind]);
    };
    const element = frame.current;
    window.addEventListener('message', listen);
    element?.addEventListener('load', ask);
    return () => {
      window.removeEventListener('message', listen);
      element?.removeEventListener('load', ask);
    };
  }, [kind, onFail]);
  return (
    <>
      <iframe
        ref={frame}
        src={src}
        title={`${title} (${kind === 'youtube' ? 'YouTube' : 'Vimeo'} player)`}
        style={FRAME}
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        // The console sends no Referer anywhere; YouTube's embed refuses to play without one, so
        // this frame alone tells it the console's origin (never the path, which names channels).
        referrerPolicy="strict-origin-when-cross-origin"
      />
      <Anchor href={src.replace(/#.*$/, '')} target="_blank" rel="noreferrer" size="sm">
        Open the player in a new tab
      </Anchor>
    </>
  );
}

/** Whether an address names an HLS playlist (played through hls.js where the browser has Media Source). */
const isHls = (src: string) => /\.m3u8$/i.test(src.replace(/[?#].*$/, ''));

/**
 * A direct media file or a live stream URI; a file is seeked to where the programme is by now. An
 * HLS playlist plays through hls.js (loaded only then), whose fatal errors are said in words, as
 * the element's own errors are.
 */
function MediaPlayer({ src, position, title, joinedAt, onFail }: { src: string; position: number | null; title: string; joinedAt: number; onFail: OnFail }) {
  const video = useRef<HTMLVideoElement>(null);
  const hls = isHls(src);
  useEffect(() => {
    const element = video.current;
    if (!element || !hls) return;
    let stopped = false;
    let destroy = () => {};
    void import('hls.js').then(
      ({ default: Hls }) => {
        if (stopped) return;
        if (!Hls.isSupported()) {
          element.src = src;
          return;
        }
        const startPosition = position === null ? -1 : position + Math.max(0, (Date.now() - joinedAt) / 1000);
        // No worker: the console's policy lets scripts run only from its own files (no blob: workers).
        const player = new Hls({ enableWorker: false, startPosition });
        player.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          onFail(videoHlsWords({ type: data.type, details: data.details, status: data.response?.code }));
          player.destroy();
        });
        player.loadSource(src);
        player.attachMedia(element);
        destroy = () => player.destroy();
      },
      () => onFail('The player could not be loaded. Reload the page and try again.'),
    );
    return () => {
      stopped = true;
      destroy();
    };
  }, [hls, src, position, joinedAt, onFail]);
  useEffect(() => {
    const element = video.current;
    if (!element || position === null || hls) return;
    const seek = () => {
      element.currentTime = position + Math.max(0, (Date.now() - joinedAt) / 1000);
    };
    if (element.readyState >= 1) seek();
    else element.addEventListener('loadedmetadata', seek, { once: true });
    return () => element.removeEventListener('loadedmetadata', seek);
  }, [position, joinedAt, hls]);
  return (
    <video
      ref={video}
      src={hls ? undefined : src}
      controls
      autoPlay
      muted
      playsInline
      aria-label={`${title} (video)`}
      style={{ ...FRAME, background: 'black' }}
      data-position={position ?? 'live'}
      // Through hls.js the element plays a blob: of its own; its failures are hls.js's to say.
      onError={(e) => (hls ? undefined : onFail(mediaErrorWords(e.currentTarget.error?.code)))}
    />
  );
}
