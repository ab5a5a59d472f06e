// Apps: one app per platform (names, links, colours with live TV and phone previews, images,
// store products, pay-per-view, credentials, channel assignments), and the owner's app tokens.
import { Divider, Stack, Tabs, Title } from '@mantine/core';
import { APP_PLATFORMS } from '../../../../src/vocabulary.ts';
import { navigate } from '../../router.ts';
import { AppEditor, type Platform } from './AppEditor.tsx';
import { AppTokens } from './AppTokens.tsx';

const NAMES: Record<Platform, string> = { mobile: 'Mobile', roku: 'Roku', firetv: 'Fire TV', appletv: 'Apple TV', androidtv: 'Android TV' };

export function AppsScreen({ rest }: { rest: string[] }) {
  const platform = (APP_PLATFORMS as readonly string[]).includes(rest[0] ?? '') ? (rest[0] as Platform) : 'mobile';
  return (
    <Stack>
      <Title order={2}>Apps</Title>
      <Tabs value={platform} onChange={(value) => value && navigate('apps', value)} keepMounted={false}>
        <Tabs.List>
          {APP_PLATFORMS.map((p) => (
            <Tabs.Tab key={p} value={p}>
              {NAMES[p]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {APP_PLATFORMS.map((p) => (
          <Tabs.Panel key={p} value={p} pt="md">
            <AppEditor key={p} platform={p} />
          </Tabs.Panel>
        ))}
      </Tabs>
      <Divider />
      <AppTokens />
    </Stack>
  );
}
