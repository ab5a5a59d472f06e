// A channel's own fields (create and edit): name, URL slug, category, language, zone, picture,
// description. Categories and languages come from the shared lists; a new category can be added
// from here. The API's refusals appear beside their fields; what was typed stays.
import { ActionIcon, Autocomplete, Button, Group, Popover, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useCategories, useCreateCategory, useLanguages } from '../../api/channels.ts';
import type { ChannelFields } from '../../api/types.ts';
import { fieldError, FormAlert } from '../../ui/errors.tsx';
import { FormActions } from '../../ui/FormActions.tsx';
import { useSubmit } from '../../ui/submit.ts';

const FIELDS = ['name', 'url', 'categoryId', 'languageId', 'timezone', 'pictureUrl', 'description'];
const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];

export function ChannelForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: Partial<ChannelFields>;
  submitLabel: string;
  onSubmit: (fields: ChannelFields) => Promise<void>;
  onCancel?: () => void;
}) {
  const [fields, setFields] = useState<ChannelFields>({
    name: initial?.name ?? '',
    url: initial?.url ?? '',
    categoryId: initial?.categoryId ?? null,
    languageId: initial?.languageId ?? null,
    timezone: initial?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    pictureUrl: initial?.pictureUrl ?? null,
    description: initial?.description ?? null,
    playLiveFirst: initial?.playLiveFirst ?? false,
    keepGuideOpened: initial?.keepGuideOpened ?? false,
  });
  const categoryList = useCategories();
  const languageList = useLanguages();
  const categories = categoryList.data ?? [];
  const languages = languageList.data ?? [];
  const set = (patch: Partial<ChannelFields>) => setFields((current) => ({ ...current, ...patch }));
  const submit = useSubmit(() => onSubmit({ ...fields, pictureUrl: fields.pictureUrl || null, description: fields.description || null }));

  const [newCategory, setNewCategory] = useState<string | null>(null);
  const createCategory = useCreateCategory();
  const adding = useSubmit(async () => {
    if (!newCategory) return;
    set({ categoryId: (await createCategory.mutateAsync(newCategory)).id });
    setNewCategory(null);
  });
  const error = submit.error ?? adding.error ?? categoryList.error ?? languageList.error;

  return (
    <form onSubmit={submit.onSubmit()} aria-label="Channel details">
      <Stack gap="sm">
        <FormAlert error={error} fields={FIELDS} />
        <TextInput label="Name" required value={fields.name} onChange={(e) => set({ name: e.currentTarget.value })} error={fieldError(error, 'name')} />
        <TextInput
          label="URL slug"
          required
          description="Unique among your channels, e.g. harbour-news"
          value={fields.url}
          onChange={(e) => set({ url: e.currentTarget.value })}
          error={fieldError(error, 'url')}
        />
        <Group align="flex-end" wrap="nowrap">
          <Select
            label="Category"
            required
            searchable
            style={{ flex: 1 }}
            data={categories.map((c) => ({ value: String(c.id), label: c.name }))}
            value={fields.categoryId === null ? null : String(fields.categoryId)}
            onChange={(value) => set({ categoryId: value === null ? null : Number(value) })}
            error={fieldError(error, 'categoryId')}
          />
          <Popover opened={newCategory !== null} onChange={(opened) => !opened && setNewCategory(null)} trapFocus position="bottom-end">
            <Popover.Target>
              <ActionIcon size="lg" variant="light" onClick={() => setNewCategory('')} aria-label="New category" mb={fieldError(error, 'categoryId') ? 22 : 0}>
                +
              </ActionIcon>
            </Popover.Target>
            <Popover.Dropdown>
              <Group align="flex-end" wrap="nowrap">
                <TextInput label="New category name" value={newCategory ?? ''} onChange={(e) => setNewCategory(e.currentTarget.value)} />
                <Button onClick={() => void adding.run()}>Add</Button>
              </Group>
            </Popover.Dropdown>
          </Popover>
        </Group>
        <Select
          label="Language"
          searchable
          clearable
          data={languages.map((l) => ({ value: String(l.id), label: `${l.name} (${l.code})` }))}
          value={fields.languageId === null ? null : String(fields.languageId)}
          onChange={(value) => set({ languageId: value === null ? null : Number(value) })}
          error={fieldError(error, 'languageId')}
        />
        <Autocomplete
          label="Time zone"
          description="The zone the schedule's times are in (IANA name)"
          data={ZONES}
          limit={20}
          value={fields.timezone}
          onChange={(value) => set({ timezone: value })}
          error={fieldError(error, 'timezone')}
        />
        <TextInput label="Picture URL" value={fields.pictureUrl ?? ''} onChange={(e) => set({ pictureUrl: e.currentTarget.value })} error={fieldError(error, 'pictureUrl')} />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={fields.description ?? ''}
          onChange={(e) => set({ description: e.currentTarget.value })}
          error={fieldError(error, 'description')}
        />
        <Group>
          <Switch label="Play live streams first" checked={fields.playLiveFirst} onChange={(e) => set({ playLiveFirst: e.currentTarget.checked })} />
          <Switch label="Keep the guide open" checked={fields.keepGuideOpened} onChange={(e) => set({ keepGuideOpened: e.currentTarget.checked })} />
        </Group>
        <FormActions submitLabel={submitLabel} busy={submit.busy} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
