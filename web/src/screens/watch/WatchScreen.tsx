// Watch (#/watch/{channelId}): the channel as a viewer sees it now, joined in progress: the
// YouTube or Vimeo embed started at the programme's position, or a <video> for direct media and
// live stream URIs seeked there; at the programme's end the next one follows. Nothing on air
// says when the next programme starts. With linear output on and a guide key in this tab, it
// plays the channel's own HLS stream instead (HlsPlayer), one player across programmes.
import { Alert, Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
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
import { playerFor, type Player } from './plan.ts';

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
  const src = on && held[0] ? liveUrls(window.location.origin, held[0], channelId).master : undefined;
  return (
    <Stack gap="xs">
      {on && !src ? (
        <Alert color="blue" role="status">
          Linear output is on. To watch the channel's own stream here, make a guide key on the Apps screen or paste one under the channel's Linear output; until then Watch plays each programme's
          own video.
        </Alert>
      ) : null}
      {src ? <HlsPlayer key={src} src={src} title={name} /> : null}
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
  const player = playerFor(now, now.positionSeconds);
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
      {withPlayer ? <PlayerView key={`${now.videoId}-${now.start}`} player={player} title={now.title} joinedAt={answeredAt} /> : null}
      {upNext}
    </Stack>
  );
}

const FRAME = { width: '100%', maxWidth: 960, aspectRatio: '16 / 9', border: 0, display: 'block' } as const;

function PlayerView({ player, title, joinedAt }: { player: Player; title: string; joinedAt: number }) {
  if (player.kind === 'none') return <Alert color="yellow">{player.reason}</Alert>;
  if (player.kind === 'media') return <MediaPlayer src={player.src} position={player.position} title={title} joinedAt={joinedAt} />;
  return (
    <>
      <iframe
        src={player.src}
        title={`${title} (${player.kind === 'youtube' ? 'YouTube' : 'Vimeo'} player)`}
        style={FRAME}
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        // The console sends no Referer anywhere; YouTube's embed refuses to play without one, so
        // this frame alone tells it the console's origin (never the path, which names channels).
        referrerPolicy="strict-origin-when-cross-origin"
      />
      <Anchor href={player.src.replace(/#.*$/, '')} target="_blank" rel="noreferrer" size="sm">
        Open the player in a new tab
      </Anchor>
    </>
  );
}

/** A direct media file or a live stream URI; a file is seeked to where the programme is by now. */
function MediaPlayer({ src, position, title, joinedAt }: { src: string; position: number | null; title: string; joinedAt: number }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = video.current;
    if (!element || position === null) return;
    const seek = () => {
      element.currentTime = position + Math.max(0, (Date.now() - joinedAt) / 1000);
    };
    if (element.readyState >= 1) seek();
    else element.addEventListener('loadedmetadata', seek, { once: true });
    return () => element.removeEventListener('loadedmetadata', seek);
  }, [position, joinedAt]);
  return <video ref={video} src={src} controls autoPlay muted playsInline aria-label={`${title} (video)`} style={{ ...FRAME, background: 'black' }} data-position={position ?? 'live'} />;
}
