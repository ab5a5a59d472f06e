// One video's fields (add and edit). On a refusal the API's messages appear beside their fields
// and what was typed stays.
import { Autocomplete, Checkbox, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Video } from '../../api/types.ts';
import { fieldError, FormAlert } from '../../ui/errors.tsx';
import { FormActions } from '../../ui/FormActions.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { formatDuration, parseDuration } from '../../ui/duration.ts';
import type { NewVideo } from './paste.ts';

const FIELDS = ['title', 'durationSeconds', 'providerName', 'providerVideoId', 'description', 'thumbnailUrl', 'streamUrl', 'isPrivate'];
const PROVIDERS = ['YouTube', 'Vimeo', 'Self-hosted'];

export function VideoForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: Video;
  submitLabel: string;
  onSubmit: (video: NewVideo) => Promise<void>;
  onCancel: () => void;
}) {
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
  // One duration format everywhere: h:mm:ss shown, h:mm:ss or seconds accepted. A duration left as
  // shown keeps its exact seconds (600.5 s shows as 10:01 and must not be saved as 601).
  const shown = initial ? formatDuration(initial.durationSeconds) : '';
  const [duration, setDuration] = useState(shown);
  const [durationProblem, setDurationProblem] = useState<string | null>(null);
  const submit = useSubmit(async () => {
    const seconds = duration === shown && initial ? initial.durationSeconds : parseDuration(duration);
    if (seconds === undefined) {
      setDurationProblem(duration.trim() === '' ? 'enter the duration (h:mm:ss or seconds)' : `"${duration}" is not h:mm:ss or seconds`);
      return;
    }
    setDurationProblem(null);
    await onSubmit({ ...video, durationSeconds: seconds, description: video.description || null, streamUrl: video.streamUrl || null });
  });
  const { error } = submit;

  return (
    <form onSubmit={submit.onSubmit()} aria-label="Video">
      <Stack gap="sm">
        <FormAlert error={error} fields={FIELDS} />
        <TextInput label="Title" required value={video.title} onChange={(e) => set({ title: e.currentTarget.value })} error={fieldError(error, 'title')} />
        <Group grow align="flex-start">
          <TextInput
            label="Duration (h:mm:ss or seconds)"
            placeholder="10:00"
            value={duration}
            onChange={(e) => setDuration(e.currentTarget.value)}
            error={durationProblem ?? fieldError(error, 'durationSeconds')}
          />
          <Autocomplete label="Provider" data={PROVIDERS} value={video.providerName} onChange={(value) => set({ providerName: value })} error={fieldError(error, 'providerName')} />
        </Group>
        <TextInput
          label="Provider video id"
          required
          value={video.providerVideoId}
          onChange={(e) => set({ providerVideoId: e.currentTarget.value })}
          error={fieldError(error, 'providerVideoId')}
        />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={video.description ?? ''}
          onChange={(e) => set({ description: e.currentTarget.value })}
          error={fieldError(error, 'description')}
        />
        <TextInput
          label="Thumbnail URL"
          value={video.thumbnailUrl ?? ''}
          onChange={(e) => set({ thumbnailUrl: e.currentTarget.value })}
          error={fieldError(error, 'thumbnailUrl')}
        />
        <TextInput
          label="Stream URL (self-hosted)"
          value={video.streamUrl ?? ''}
          onChange={(e) => set({ streamUrl: e.currentTarget.value })}
          error={fieldError(error, 'streamUrl')}
        />
        <Checkbox label="Private" checked={video.isPrivate ?? false} onChange={(e) => set({ isPrivate: e.currentTarget.checked })} />
        <FormActions submitLabel={submitLabel} busy={submit.busy} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
