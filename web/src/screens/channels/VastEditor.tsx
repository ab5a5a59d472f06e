// A channel's VAST ad settings, one per platform: PUT to set, DELETE to remove.
import { Alert, Button, Checkbox, Group, Loader, NumberInput, Select, Stack, Table, TextInput } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { VAST_PLATFORMS, VAST_TYPES } from '../../../../src/vocabulary.ts';
import { studio } from '../../api/client.ts';
import type { Vast } from '../../api/types.ts';
import { fieldError, FormAlert, formMessage } from '../../ui/errors.tsx';

type Platform = (typeof VAST_PLATFORMS)[number];
const FIELDS = ['vastUrl', 'vastVersion', 'adFrequency', 'midRollFrequency', 'timeFrom', 'timeTo', 'vastType'];

export function VastEditor({ channelId }: { channelId: number }) {
  const [settings, setSettings] = useState<Vast[] | null>(null);
  const [platform, setPlatform] = useState<Platform>('roku');
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => studio<{ items: Vast[] } | Vast[]>(`/channels/${channelId}/vast`).then(({ data }) => setSettings(Array.isArray(data) ? data : data.items), setError), [channelId]);
  useEffect(() => {
    void load();
  }, [load]);
  if (!settings) return error ? <Alert color="red">{formMessage(error)}</Alert> : <Loader aria-label="Loading VAST settings" />;
  const current = settings.find((s) => s.platform === platform);
  return (
    <Stack maw={560}>
      <Table aria-label="VAST settings">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Platform</Table.Th>
            <Table.Th>VAST URL</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {settings.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={2}>No VAST settings: the apps play no ads on this channel.</Table.Td>
            </Table.Tr>
          ) : (
            settings.map((s) => (
              <Table.Tr key={s.platform}>
                <Table.Td>{s.platform}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{s.vastUrl}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      <Select label="Platform" data={[...VAST_PLATFORMS]} value={platform} onChange={(value) => value && setPlatform(value as Platform)} allowDeselect={false} />
      <VastForm key={`${platform}-${current?.vastUrl ?? ''}`} channelId={channelId} platform={platform} initial={current} onSaved={load} />
    </Stack>
  );
}

function VastForm({ channelId, platform, initial, onSaved }: { channelId: number; platform: Platform; initial: Vast | undefined; onSaved: () => Promise<void> }) {
  const [vast, setVast] = useState<Omit<Vast, 'platform'>>(() => ({ vastUrl: '', vastVersion: 1, skippable: false, allowAdsInVod: false, adFrequency: null, midRollFrequency: null, vastType: null, ...initial }));
  const [error, setError] = useState<unknown>(null);
  const set = (patch: Partial<Vast>) => setVast((v) => ({ ...v, ...patch }));
  const numberOrNull = (value: string | number) => (value === '' ? null : Number(value));

  async function save(method: 'PUT' | 'DELETE') {
    setError(null);
    try {
      const { platform: _p, ...body } = vast as Vast;
      await studio(`/channels/${channelId}/vast/${platform}`, method === 'PUT' ? { method, body } : { method });
      await onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Stack gap="sm">
      <FormAlert error={error} fields={FIELDS} />
      <TextInput label={`VAST URL (${platform})`} value={vast.vastUrl} onChange={(e) => set({ vastUrl: e.currentTarget.value })} error={fieldError(error, 'vastUrl')} />
      <Group grow>
        <NumberInput label="VAST version" value={vast.vastVersion ?? 1} onChange={(v) => set({ vastVersion: Number(v) || 1 })} error={fieldError(error, 'vastVersion')} />
        <NumberInput label="Ad frequency" value={vast.adFrequency ?? ''} onChange={(v) => set({ adFrequency: numberOrNull(v) })} error={fieldError(error, 'adFrequency')} />
        <NumberInput label="Mid-roll frequency" value={vast.midRollFrequency ?? ''} onChange={(v) => set({ midRollFrequency: numberOrNull(v) })} error={fieldError(error, 'midRollFrequency')} />
      </Group>
      <Select label="Ad type" clearable data={[...VAST_TYPES]} value={vast.vastType ?? null} onChange={(v) => set({ vastType: (v as Vast['vastType']) ?? null })} />
      <Group>
        <Checkbox label="Skippable" checked={vast.skippable ?? false} onChange={(e) => set({ skippable: e.currentTarget.checked })} />
        <Checkbox label="Ads in VOD" checked={vast.allowAdsInVod ?? false} onChange={(e) => set({ allowAdsInVod: e.currentTarget.checked })} />
      </Group>
      <Group>
        <Button onClick={() => save('PUT')}>Save VAST for {platform}</Button>
        {initial ? (
          <Button variant="light" color="red" onClick={() => save('DELETE')}>
            Remove VAST for {platform}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
