// A channel's VAST ad settings, one per platform: PUT to set, DELETE to remove.
import { Button, Checkbox, Group, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { VAST_PLATFORMS, VAST_TYPES } from '../../../../src/vocabulary.ts';
import { usePutVast, useVast } from '../../api/channels.ts';
import type { Vast, VastBody } from '../../api/types.ts';
import { DataTable } from '../../ui/DataTable.tsx';
import { fieldError, FormAlert } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';

type Platform = (typeof VAST_PLATFORMS)[number];
const FIELDS = ['vastUrl', 'vastVersion', 'adFrequency', 'midRollFrequency', 'timeFrom', 'timeTo', 'vastType'];
const COLUMNS = [
  { header: 'Platform', cell: (s: Vast) => s.platform },
  { header: 'VAST URL', cell: (s: Vast) => s.vastUrl, style: { wordBreak: 'break-all' } as const },
];

export function VastEditor({ channelId }: { channelId: number }) {
  const settings = useVast(channelId);
  const [platform, setPlatform] = useState<Platform>('roku');
  return (
    <Loaded query={settings} label="Loading VAST settings">
      {(items) => {
        const current = items.find((s) => s.platform === platform);
        return (
          <Stack maw={560}>
            <DataTable label="VAST settings" columns={COLUMNS} rows={items} rowKey={(s) => s.platform} empty="No VAST settings: the apps play no ads on this channel." />
            <Select label="Platform" data={[...VAST_PLATFORMS]} value={platform} onChange={(value) => value && setPlatform(value as Platform)} allowDeselect={false} />
            <VastForm key={`${platform}-${current?.vastUrl ?? ''}`} channelId={channelId} platform={platform} initial={current} />
          </Stack>
        );
      }}
    </Loaded>
  );
}

type VastFields = Omit<VastBody, 'platform'>;

function VastForm({ channelId, platform, initial }: { channelId: number; platform: Platform; initial: Vast | undefined }) {
  const [vast, setVast] = useState<VastFields>(() => {
    const { platform: _p, ...stored } = initial ?? ({} as Partial<Vast>);
    return { vastUrl: '', vastVersion: 1, skippable: false, allowAdsInVod: false, adFrequency: null, midRollFrequency: null, vastType: null, ...stored } as VastFields;
  });
  const put = usePutVast(channelId);
  const submit = useSubmit((remove: boolean) => put.mutateAsync({ platform, body: remove ? null : vast }));
  const { error } = submit;
  const set = (patch: Partial<VastFields>) => setVast((v) => ({ ...v, ...patch }));
  const numberOrNull = (value: string | number) => (value === '' ? null : Number(value));

  return (
    <Stack gap="sm">
      <FormAlert error={error} fields={FIELDS} />
      <TextInput label={`VAST URL (${platform})`} value={vast.vastUrl} onChange={(e) => set({ vastUrl: e.currentTarget.value })} error={fieldError(error, 'vastUrl')} />
      <Group grow>
        <NumberInput label="VAST version" value={vast.vastVersion ?? 1} onChange={(v) => set({ vastVersion: Number(v) || 1 })} error={fieldError(error, 'vastVersion')} />
        <NumberInput label="Ad frequency" value={vast.adFrequency ?? ''} onChange={(v) => set({ adFrequency: numberOrNull(v) })} error={fieldError(error, 'adFrequency')} />
        <NumberInput
          label="Mid-roll frequency"
          value={vast.midRollFrequency ?? ''}
          onChange={(v) => set({ midRollFrequency: numberOrNull(v) })}
          error={fieldError(error, 'midRollFrequency')}
        />
      </Group>
      <Select label="Ad type" clearable data={[...VAST_TYPES]} value={vast.vastType ?? null} onChange={(v) => set({ vastType: (v as VastFields['vastType']) ?? null })} />
      <Group>
        <Checkbox label="Skippable" checked={vast.skippable ?? false} onChange={(e) => set({ skippable: e.currentTarget.checked })} />
        <Checkbox label="Ads in VOD" checked={vast.allowAdsInVod ?? false} onChange={(e) => set({ allowAdsInVod: e.currentTarget.checked })} />
      </Group>
      <Group>
        <Button onClick={() => void submit.run(false)}>Save VAST for {platform}</Button>
        {initial ? (
          <Button variant="light" color="red" onClick={() => void submit.run(true)}>
            Remove VAST for {platform}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
