// The channel's own linear stream (its master playlist) in a <video>, through hls.js where the
// browser has Media Source Extensions, natively where it plays HLS itself (Safari). hls.js is
// loaded only when this player appears (a dynamic import: its own chunk, not the console's first
// load). A fatal error stops the player and is said in words; others hls.js recovers from itself.
// `onInstead` (Watch): a button under the failure plays the programme's own video instead.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { hlsErrorWords } from './hls-words.ts';

const FRAME = { width: '100%', maxWidth: 960, aspectRatio: '16 / 9', border: 0, display: 'block', background: 'black' } as const;

export function HlsPlayer({ src, title, onInstead }: { src: string; title: string; onInstead?: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let stopped = false;
    let destroy = () => {};
    void import('hls.js').then(
      ({ default: Hls }) => {
        if (stopped) return;
        if (!Hls.isSupported()) {
          if (element.canPlayType('application/vnd.apple.mpegurl')) element.src = src;
          else setFailure('This browser cannot play HLS streams.');
          return;
        }
        // No worker: the console's policy lets scripts run only from its own files (no blob: workers).
        const hls = new Hls({ enableWorker: false });
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          setFailure(hlsErrorWords({ type: data.type, details: data.details, status: data.response?.code }));
          hls.destroy();
        });
        hls.loadSource(src);
        hls.attachMedia(element);
        destroy = () => hls.destroy();
      },
      () => setFailure('The player could not be loaded. Reload the page and try again.'),
    );
    return () => {
      stopped = true;
      destroy();
    };
  }, [src]);

  return (
    <>
      <video ref={video} controls autoPlay muted playsInline aria-label={`${title} (linear stream)`} style={FRAME} />
      {failure ? (
        <Alert color="red" role="alert" title="The stream cannot play">
          <Stack gap="xs">
            <Text size="sm">{failure}</Text>
            {onInstead ? (
              <Group>
                <Button size="xs" onClick={onInstead}>
                  Play the programme's own video instead
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Alert>
      ) : (
        <Text size="xs" c="dimmed">
          The channel's own linear stream, as Plex, Jellyfin and IPTV players receive it.
        </Text>
      )}
    </>
  );
}
