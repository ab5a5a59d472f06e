// The addresses to hand to players (M3U, master playlist, HDHomeRun tuner, XMLTV guide), built
// with an app's guide key this tab holds (api/guide-keys.ts). Without one, the panel says where a
// key comes from and takes a pasted key or guide URL.
import { Alert, Button, Code, CopyButton, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { guideKeys, useGuideKeys } from '../../api/guide-keys.ts';
import { keyFromPaste, liveUrls } from './urls.ts';

const ROWS: { field: 'm3u' | 'master' | 'tuner' | 'guide'; label: string; use: string }[] = [
  { field: 'm3u', label: 'M3U playlist', use: 'VLC, TiviMate, Jellyfin (M3U tuner) and any IPTV player: every linear channel the app carries.' },
  { field: 'master', label: "This channel's stream", use: 'One channel in any HLS player (Safari, VLC, ffplay).' },
  { field: 'tuner', label: 'HDHomeRun tuner', use: 'Plex (Live TV & DVR) and Jellyfin or Emby (HDHomeRun tuner device): type this address.' },
  { field: 'guide', label: 'XMLTV guide', use: 'The programme guide for Plex, Jellyfin and IPTV players (the M3U names it too).' },
];

/** The key to show: the one picked, else the first held. */
function pickKey(held: Record<string, string>, picked: string | null): { source: string; key: string } | undefined {
  const source = picked && held[picked] ? picked : Object.keys(held)[0];
  return source === undefined ? undefined : { source, key: held[source]! };
}

export function PlayerAddresses({ channelId }: { channelId: number }) {
  const held = useGuideKeys();
  const [picked, setPicked] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  const [pasteError, setPasteError] = useState<string | undefined>();
  const chosen = pickKey(held, picked);
  const urls = chosen ? liveUrls(window.location.origin, chosen.key, channelId) : undefined;

  const usePasted = () => {
    const key = keyFromPaste(pasted);
    if (!key) return setPasteError('Paste a guide key, or a guide, M3U or tuner URL that holds one.');
    setPasteError(undefined);
    guideKeys.remember('pasted', key);
    setPicked('pasted');
    setPasted('');
  };

  return (
    <Stack gap="xs">
      <Text size="sm">
        Players reach the network through an app's guide key: its M3U lists, and its tuner plays, the linear channels that app carries and anyone may watch (a paid or private
        channel plays only through a viewer's own link). A key is made on Apps → the app → XMLTV guide key, and shown once.
      </Text>
      {Object.keys(held).length > 1 ? (
        <Select
          label="Guide key"
          data={Object.keys(held).map((source) => ({ value: source, label: source === 'pasted' ? 'The key pasted here' : `The ${source} app's key` }))}
          value={chosen?.source ?? null}
          onChange={setPicked}
          allowDeselect={false}
          maw={320}
        />
      ) : null}
      {urls ? (
        <Stack gap={6} aria-label="Player addresses">
          {ROWS.map((row) => (
            <div key={row.field}>
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" fw={600}>
                  {row.label}
                </Text>
                <CopyButton value={urls[row.field]}>
                  {({ copied, copy }) => (
                    <Button size="compact-xs" variant="light" onClick={copy} aria-label={`Copy the ${row.label} address`}>
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} aria-label={`${row.label} address`}>
                {urls[row.field]}
              </Code>
              <Text size="xs" c="dimmed">
                {row.use}
              </Text>
            </div>
          ))}
          <Text size="xs" c="dimmed">
            Anyone holding these addresses can watch the channels they list: hand them out as you would the guide URL. Making a new key on the Apps screen stops the old addresses
            within one window.
          </Text>
        </Stack>
      ) : (
        <Alert color="blue" title="No guide key in this tab">
          The addresses carry a guide key, which the Studio shows only once. Make a key on Apps → the app → XMLTV guide key (this tab then keeps it), or paste the key or the guide
          URL you kept.
        </Alert>
      )}
      <Group align="flex-start" wrap="nowrap">
        <TextInput label="Paste a guide key or URL" value={pasted} onChange={(e) => setPasted(e.currentTarget.value)} error={pasteError} style={{ flex: 1 }} />
        <Button mt={25} variant="light" onClick={usePasted} disabled={pasted.trim() === ''}>
          Use this key
        </Button>
      </Group>
    </Stack>
  );
}
