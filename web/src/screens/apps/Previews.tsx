// Live previews of an app's colours: a mock TV screen coloured by the theme roles (primary,
// secondary, background, style) showing the app's real guide (now and next on its first channel),
// and a mock phone coloured by the mobile colours. Each role is
// named in visible text with its value, so what the preview shows can be read, not only seen.
import { Box, Group, Stack, Text } from '@mantine/core';
import type { App } from '../../api/types.ts';
import { readableOn, toCss } from './colours.ts';

/** A TV app's theme roles (Android TV has no background). */
export type Theme = NonNullable<App['theme']>;
/** A mobile app's four colours. */
export type MobileColours = Pick<NonNullable<App['mobile']>, 'selectionColor' | 'headerFooterColor' | 'backgroundColor' | 'fontColor'>;

/** The stock Roku colours a Roku app without a theme reports (README: app_settings). */
const ROKU_DEFAULT_BACKGROUND = '101010';

/** What the mock TV lists as on now and next (tv-guide.ts), in words; absent: the guide is still loading. */
export interface TvLineup {
  now: string;
  next: string;
  clock: string;
}

export function TvPreview({ theme, appName, hasBackground, lineup }: { theme: Theme; appName: string; hasBackground: boolean; lineup?: TvLineup | undefined }) {
  const background = hasBackground ? (theme.backgroundColor ?? '') : ROKU_DEFAULT_BACKGROUND;
  return (
    <figure aria-label="TV preview" style={{ margin: 0 }}>
      <Box style={{ border: '10px solid #222', borderRadius: 8, aspectRatio: '16 / 9', background: toCss(background), color: readableOn(background), padding: 12, maxWidth: 480 }}>
        <Group justify="space-between" mb="xs">
          <Text fw={700} style={{ color: toCss(theme.styleColor) }}>
            {appName || 'Your app'}
          </Text>
          <Text size="xs">{lineup?.clock ?? ''}</Text>
        </Group>
        <Group align="stretch" gap="xs" wrap="nowrap">
          <Stack gap={4} style={{ width: '35%' }}>
            {['Live', 'Channels', 'On demand'].map((item, i) => (
              <Box
                key={item}
                px={6}
                py={4}
                style={{
                  background: toCss(i === 0 ? theme.primaryColor : theme.secondaryColor),
                  color: readableOn(i === 0 ? theme.primaryColor : theme.secondaryColor),
                  borderRadius: 4,
                  fontSize: 12,
                }}
              >
                {item}
              </Box>
            ))}
          </Stack>
          <Stack gap={4} style={{ flex: 1 }}>
            <Box px={6} py={4} style={{ border: `2px solid ${toCss(theme.primaryColor)}`, borderRadius: 4, fontSize: 12 }}>
              Now: {lineup?.now ?? '…'}
            </Box>
            <Box px={6} py={4} style={{ borderRadius: 4, fontSize: 12, background: toCss(theme.secondaryColor), color: readableOn(theme.secondaryColor) }}>
              Next: {lineup?.next ?? '…'}
            </Box>
          </Stack>
        </Group>
      </Box>
      <Text size="xs" component="figcaption" mt={4}>
        Primary #{theme.primaryColor} · Secondary #{theme.secondaryColor} · Background {hasBackground ? `#${theme.backgroundColor ?? ''}` : 'none on this platform'} · Style #
        {theme.styleColor}
      </Text>
    </figure>
  );
}

export function PhonePreview({ colours, appName }: { colours: MobileColours; appName: string }) {
  const bar = { background: toCss(colours.headerFooterColor), color: readableOn(colours.headerFooterColor), padding: 8, fontSize: 12 };
  return (
    <figure aria-label="Phone preview" style={{ margin: 0 }}>
      <Box
        style={{
          width: 200,
          height: 360,
          border: '8px solid #222',
          borderRadius: 24,
          overflow: 'hidden',
          display: 'flex',
          flexDirection: 'column',
          background: toCss(colours.backgroundColor),
        }}
      >
        <Box style={bar}>
          <Text fw={700} size="sm">
            {appName || 'Your app'}
          </Text>
        </Box>
        <Stack gap={6} p={8} style={{ flex: 1, color: toCss(colours.fontColor) }}>
          <Box px={6} py={4} style={{ background: toCss(colours.selectionColor), color: readableOn(colours.selectionColor), borderRadius: 4, fontSize: 12 }}>
            Selected channel
          </Box>
          <Text size="xs">Another channel</Text>
          <Text size="xs">A third channel</Text>
        </Stack>
        <Box style={bar}>Home · Guide · Account</Box>
      </Box>
      <Text size="xs" component="figcaption" mt={4}>
        Selection #{colours.selectionColor} · Header and footer #{colours.headerFooterColor} · Background #{colours.backgroundColor} · Text #{colours.fontColor}
      </Text>
    </figure>
  );
}
