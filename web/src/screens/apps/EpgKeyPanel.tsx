// The app's XMLTV guide key (docs/xmltv.md): a public URL that hands the app's guide to an IPTV
// player or a guide service without a sign-in. Made here, shown once with its URL to copy (the
// service keeps only a digest), revoked here; a new key revokes the previous one.
import { Alert, Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useCreateEpgKey, useEpgKey, useRevokeEpgKey } from '../../api/apps.ts';
import { guideKeys } from '../../api/guide-keys.ts';
import type { CreatedEpgKey } from '../../api/types.ts';
import { formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';

/** The guide URL as a person can paste it: absolute, on this console's origin when the service has no PUBLIC_URL. */
const absolute = (url: string) => new URL(url, window.location.origin).toString();

export function EpgKeyPanel({ platform }: { platform: string }) {
  const read = useEpgKey(platform);
  const create = useCreateEpgKey(platform);
  const revoke = useRevokeEpgKey(platform);
  const [made, setMade] = useState<CreatedEpgKey | null>(null);
  const [said, setSaid] = useState('');
  const submit = useSubmit(async (action: 'create' | 'revoke') => {
    setSaid('');
    if (action === 'create') {
      const created = await create.mutateAsync(undefined);
      // Kept for this tab: the Linear output panel and the Watch view use it (api/guide-keys.ts).
      if (created.key) guideKeys.remember(platform, created.key);
      setMade(created);
      return;
    }
    await revoke.mutateAsync(read.data?.etag);
    guideKeys.forget(platform);
    setMade(null);
    setSaid('Guide key revoked: its URL answers 404 from now on.');
  });

  return (
    <Paper withBorder p="sm">
      <Title order={3} size="h5" mb="xs">
        XMLTV guide key
      </Title>
      <Text size="sm" mb="xs">
        A guide URL for IPTV players and guide services: the channels this app carries, a week ahead, in XMLTV. Anyone holding the URL can read the guide (not the streams).
      </Text>
      {submit.error ? (
        <Alert color="red" role="alert" mb="xs">
          {formMessage(submit.error)}
        </Alert>
      ) : null}
      <Loaded query={read} label="Loading the guide key">
        {(key) => (
          <Stack gap="xs">
            {made?.url ? (
              <Alert color="yellow" title="Your new guide URL" role="status">
                <Text size="sm" mb={4}>
                  Copy it now: it is shown only this once (this tab keeps it for the Linear output panel until it closes). A new key replaces this one.
                </Text>
                <Code block aria-label="New guide URL">
                  {absolute(made.url)}
                </Code>
                <Group mt="xs">
                  <CopyButton value={absolute(made.url)}>
                    {({ copied, copy }) => (
                      <Button size="xs" onClick={copy}>
                        {copied ? 'Copied' : 'Copy guide URL'}
                      </Button>
                    )}
                  </CopyButton>
                  <Button size="xs" variant="default" onClick={() => setMade(null)}>
                    Done
                  </Button>
                </Group>
              </Alert>
            ) : null}
            {said ? (
              <Text size="sm" role="status">
                {said}
              </Text>
            ) : null}
            <Text size="sm">{key ? `This app has a guide key since ${new Date(key.data.createdAt).toLocaleString()}.` : 'This app has no guide key.'}</Text>
            <Group>
              <Button size="xs" variant="light" onClick={() => void submit.run('create')} loading={create.isPending}>
                {key ? 'Make a new guide key' : 'Make a guide key'}
              </Button>
              {key ? (
                <Button size="xs" color="red" variant="light" onClick={() => void submit.run('revoke')} loading={revoke.isPending}>
                  Revoke the guide key
                </Button>
              ) : null}
            </Group>
          </Stack>
        )}
      </Loaded>
    </Paper>
  );
}
