// One video's fields (add and edit). On a refusal the API's messages appear beside their fields
// and what was typed stays.
import { Autocomplete, Checkbox, Group, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Video } from '../../api/types.ts';
import { fieldError, FormAlert } from '../../ui/errors.tsx';
import { FormActions } from '../../ui/FormActions.tsx';
import { useSubmit } from '../../ui/submit.ts';
import type { NewVideo } from './paste.ts';

const FIELDS = ['title', 'durationSeconds', 'providerName', 'providerVideoId', 'description', 'thumbnailUrl', 'streamUrl', 'isPrivate'];
const PROVIDERS = ['YouTube', 'Vimeo', 'Self-hosted'];

export function VideoForm({ initial, submitLabel, onSubmit, onCancel }: { initial?: Video; submitLabel: string; onSubmit: (video: NewVideo) => Promise<void>; onCancel: () => void }) {
  const [video, setVideo] = useState<NewVideo>(() => ({
    title: initial?.title ?? '',
    durationSeconds: initial?.durationSeconds ?? 0,
    providerName: initial?.providerName ?? 'YouTube',
    providerVideoId: initial?.providerVideoId ?? '',
    description: initial?.description ?? '',
    thumbnailUrl: initial?.thumbnailUrl ?? '',
    streamUrl: initial?.streamUrl ?? '',
    isPrivate: initial?.isPrivate ?? false,
  }));
  const set = (patch: Partial<NewVideo>) => setVideo((current) => ({ ...current, ...patch }));
  const submit = useSubmit(() => onSubmit({ ...video, description: video.description || null, streamUrl: video.streamUrl || null }));
  const { error } = submit;

  return (
    <form onSubmit={submit.onSubmit()} aria-label="Video">
      <Stack gap="sm">
        <FormAlert error={error} fields={FIELDS} />
        <TextInput label="Title" required value={video.title} onChange={(e) => set({ title: e.currentTarget.value })} error={fieldError(error, 'title')} />
        <Group grow align="flex-start">
          <NumberInput
            label="Duration (seconds)"
            value={video.durationSeconds}
            onChange={(value) => set({ durationSeconds: typeof value === 'number' ? value : Number(value) || 0 })}
            error={fieldError(error, 'durationSeconds')}
          />
          <Autocomplete label="Provider" data={PROVIDERS} value={video.providerName} onChange={(value) => set({ providerName: value })} error={fieldError(error, 'providerName')} />
        </Group>
        <TextInput label="Provider video id" required value={video.providerVideoId} onChange={(e) => set({ providerVideoId: e.currentTarget.value })} error={fieldError(error, 'providerVideoId')} />
        <Textarea label="Description" autosize minRows={2} value={video.description ?? ''} onChange={(e) => set({ description: e.currentTarget.value })} error={fieldError(error, 'description')} />
        <TextInput label="Thumbnail URL" value={video.thumbnailUrl ?? ''} onChange={(e) => set({ thumbnailUrl: e.currentTarget.value })} error={fieldError(error, 'thumbnailUrl')} />
        <TextInput label="Stream URL (self-hosted)" value={video.streamUrl ?? ''} onChange={(e) => set({ streamUrl: e.currentTarget.value })} error={fieldError(error, 'streamUrl')} />
        <Checkbox label="Private" checked={video.isPrivate ?? false} onChange={(e) => set({ isPrivate: e.currentTarget.checked })} />
        <FormActions submitLabel={submitLabel} busy={submit.busy} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
