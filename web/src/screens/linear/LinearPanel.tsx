// A channel's Linear output (#/channels/{id}, tab "Linear output"; docs/linear.md): turn it on,
// the target duration and window, the output ladder as rungs, the coverage (how much of the next
// 7 days plays as itself, and why the rest airs the slate), and the addresses players take.
// The save sends the ETag the form was read with (412 in words), refusals sit beside their
// fields, and leaving with unsaved edits asks first, as the Library does.
import { Alert, Button, Group, List, NumberInput, Progress, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Answer } from '../../api/client.ts';
import { useLinear, usePutLinear, type LinearBody, type LinearOutput, type Rung } from '../../api/linear.ts';
import { DataTable } from '../../ui/DataTable.tsx';
import { fieldError, FormAlert } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { Panel } from '../../ui/Panel.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { useUnsavedChanges } from '../../ui/unsaved.ts';
import { PlayerAddresses } from './PlayerAddresses.tsx';
import { airTime, bandwidth, coverageSentence, percent, reasonLines, reasonWords, rungLabel, sortedLadder, span, windowProblem } from './words.ts';

const FIELDS = ['enabled', 'targetDurationSeconds', 'windowSeconds', 'ladder'];
/** Slate programmes listed before "and N more" (a week of gaps can be long). */
const LISTED = 50;

export function LinearPanel({ channelId, timezone }: { channelId: number; timezone: string }) {
  const linear = useLinear(channelId);
  return (
    <Loaded query={linear} label="Loading linear output" fresh>
      {(read) => <LinearEditor channelId={channelId} timezone={timezone} read={read} />}
    </Loaded>
  );
}

type Fields = { enabled: boolean; targetDurationSeconds: number; windowSeconds: number; ladder: Rung[] };
const fieldsOf = (l: LinearOutput): Fields => ({
  enabled: l.enabled,
  targetDurationSeconds: l.targetDurationSeconds,
  windowSeconds: l.windowSeconds,
  ladder: sortedLadder(l.ladder),
});
const same = (a: Fields, b: Fields) => JSON.stringify(a) === JSON.stringify(b);

function LinearEditor({ channelId, timezone, read }: { channelId: number; timezone: string; read: Answer<LinearOutput> }) {
  // The version the form edits: the one read, then each one a save answers.
  const [current, setCurrent] = useState(read);
  const [fields, setFields] = useState(() => fieldsOf(read.data));
  const [saved, setSaved] = useState('');
  const put = usePutLinear(channelId);
  const dirty = !same(fields, fieldsOf(current.data));
  useUnsavedChanges(dirty);
  const set = (patch: Partial<Fields>) => {
    setSaved('');
    setFields((f) => ({ ...f, ...patch }));
  };
  const submit = useSubmit(async () => {
    // An empty ladder is left out: the channel then takes its first ready video's ladder.
    const body: LinearBody = {
      enabled: fields.enabled,
      targetDurationSeconds: fields.targetDurationSeconds,
      windowSeconds: fields.windowSeconds,
      ...(fields.ladder.length > 0 ? { ladder: fields.ladder } : {}),
    };
    const answer = await put.mutateAsync({ body, etag: current.etag });
    setCurrent(answer);
    setFields(fieldsOf(answer.data));
    setSaved(answer.data.enabled ? 'Saved: linear output is on.' : 'Saved: linear output is off.');
  });
  const { error } = submit;
  const windowLocal = windowProblem(fields.targetDurationSeconds, fields.windowSeconds);
  const aired = current.data.epoch !== null;

  return (
    <Stack>
      <Panel title="Linear output">
        <form onSubmit={submit.onSubmit()} aria-label="Linear output settings">
          <Stack gap="sm" maw={640}>
            <Text size="sm">
              The channel as a live HLS stream for Plex, Jellyfin, VLC and IPTV players, stitched from your own HLS videos by the schedule. What cannot be stitched airs a slate;
              the guide still lists the real programme.
            </Text>
            <FormAlert error={error} fields={FIELDS} />
            {saved ? (
              <Alert color="green" role="status" withCloseButton onClose={() => setSaved('')}>
                {saved}
              </Alert>
            ) : null}
            <Switch label="Linear output on" checked={fields.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} error={fieldError(error, 'enabled')} />
            <Group grow align="flex-start">
              <NumberInput
                label="Target duration (seconds)"
                description={
                  aired ? 'Fixed since the channel first aired (players require it).' : 'The longest segment any video may have; it never changes once the channel airs.'
                }
                min={1}
                max={60}
                value={fields.targetDurationSeconds}
                onChange={(v) => set({ targetDurationSeconds: Number(v) })}
                error={fieldError(error, 'targetDurationSeconds')}
              />
              <NumberInput
                label="Window (seconds)"
                description="How much of the stream a player sees at once (60 s is usual)."
                min={1}
                value={fields.windowSeconds}
                onChange={(v) => set({ windowSeconds: Number(v) })}
                error={fieldError(error, 'windowSeconds') ?? windowLocal}
              />
            </Group>
            <LadderEditor ladder={fields.ladder} onChange={(ladder) => set({ ladder })} error={fieldError(error, 'ladder')} />
            <Group justify="flex-end">
              {dirty ? (
                <Text size="sm" c="dimmed">
                  Unsaved changes
                </Text>
              ) : null}
              <Button variant="default" disabled={!dirty} onClick={() => set(fieldsOf(current.data))}>
                Undo changes
              </Button>
              <Button type="submit" loading={submit.busy} disabled={windowLocal !== undefined}>
                Save linear output
              </Button>
            </Group>
          </Stack>
        </form>
      </Panel>
      <CoveragePanel linear={current.data} timezone={timezone} />
      <Panel title="Player addresses">
        <PlayerAddresses channelId={channelId} />
      </Panel>
    </Stack>
  );
}

function LadderEditor({ ladder, onChange, error }: { ladder: Rung[]; onChange: (ladder: Rung[]) => void; error: string | undefined }) {
  const [adding, setAdding] = useState({ bandwidth: '', size: '', codecs: '' });
  const [addError, setAddError] = useState<string | undefined>();
  const add = () => {
    const kbits = Number(adding.bandwidth);
    const size = /^\s*(\d{2,5})\s*[x×]\s*(\d{2,5})\s*$/i.exec(adding.size);
    if (!Number.isFinite(kbits) || kbits <= 0) return setAddError('Bandwidth: a number of kbit/s, e.g. 2500.');
    if (adding.size.trim() !== '' && !size) return setAddError('Size: width×height, e.g. 1280x720, or empty for audio.');
    const rung: Rung = {
      bandwidth: Math.round(kbits * 1000),
      ...(size ? { resolution: { width: Number(size[1]), height: Number(size[2]) } } : {}),
      ...(adding.codecs.trim() ? { codecs: adding.codecs.trim() } : {}),
    };
    setAddError(undefined);
    setAdding({ bandwidth: '', size: '', codecs: '' });
    onChange(sortedLadder([...ladder, rung]));
  };
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        Ladder: the renditions every player is offered
      </Text>
      <Text size="xs" c="dimmed">
        Each video airs as itself when its renditions map onto these rungs (same container and codec family, each rung to the nearest bandwidth). Left empty, the channel takes the
        ladder of its first ready HLS video.
      </Text>
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      <List size="sm" aria-label="Ladder rungs" spacing={4}>
        {ladder.length === 0 ? <List.Item>No rungs yet: saving takes the first ready video's ladder.</List.Item> : null}
        {ladder.map((rung, i) => (
          <List.Item key={`${rung.bandwidth}-${i}`}>
            <Group gap="xs">
              <Text size="sm" style={{ wordBreak: 'break-word' }}>
                {rungLabel(rung)}
              </Text>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => onChange(ladder.filter((_, j) => j !== i))}
                aria-label={`Remove the ${bandwidth(rung.bandwidth)} rung`}
              >
                Remove
              </Button>
            </Group>
          </List.Item>
        ))}
      </List>
      <Group align="flex-start" gap="xs">
        <TextInput label="Bandwidth (kbit/s)" size="xs" w={130} value={adding.bandwidth} onChange={(e) => setAdding({ ...adding, bandwidth: e.currentTarget.value })} />
        <TextInput label="Size" placeholder="1280x720" size="xs" w={110} value={adding.size} onChange={(e) => setAdding({ ...adding, size: e.currentTarget.value })} />
        <TextInput
          label="Codecs"
          placeholder="avc1.64001f,mp4a.40.2"
          size="xs"
          w={200}
          value={adding.codecs}
          onChange={(e) => setAdding({ ...adding, codecs: e.currentTarget.value })}
        />
        <Button size="xs" variant="light" mt={22} onClick={add} disabled={adding.bandwidth.trim() === ''}>
          Add rung
        </Button>
      </Group>
      {addError ? (
        <Text size="xs" c="red" role="alert">
          {addError}
        </Text>
      ) : null}
    </Stack>
  );
}

function CoveragePanel({ linear, timezone }: { linear: LinearOutput; timezone: string }) {
  const { coverage } = linear;
  const lines = reasonLines(coverage);
  const listed = coverage.programmes.slice(0, LISTED);
  return (
    <Panel title="Coverage">
      <Stack gap="xs">
        <Text size="sm" aria-label="Coverage">
          {coverageSentence(coverage)}
        </Text>
        <Progress value={Math.round(coverage.share * 1000) / 10} size="lg" aria-label={`Plays as itself: ${percent(coverage.share)}`} />
        {lines.length > 0 ? (
          <List size="sm" aria-label="Why the rest airs the slate" spacing={4}>
            {lines.map((line) => (
              <List.Item key={line.reason}>
                <Text span size="sm" fw={600}>
                  {span(line.seconds)}:
                </Text>{' '}
                {line.words}
              </List.Item>
            ))}
          </List>
        ) : null}
        <DataTable
          label="Programmes that air the slate"
          minWidth={560}
          columns={[
            { header: 'When', cell: (p) => airTime(p.start, p.end, timezone) },
            { header: 'Programme', cell: (p) => p.title },
            { header: 'Why', cell: (p) => reasonWords(p.reason) },
          ]}
          rows={listed}
          rowKey={(p) => `${p.start}-${p.videoId ?? 'gap'}`}
          empty="Every programme of the next 7 days plays as itself."
        />
        {coverage.programmes.length > LISTED ? (
          <Text size="xs" c="dimmed">
            and {coverage.programmes.length - LISTED} more in the next 7 days.
          </Text>
        ) : null}
      </Stack>
    </Panel>
  );
}
