// Programming a channel by rules: the weekly slot plan (weekdays ticked, a start picked with a
// time input, a playlist, its order), the filler list, a preview of what a range of dates would
// get, apply and one undo; and a dialog copying a day or a week over a range of dates. Every
// write makes ordinary blocks: the Schedule screen shows them as any other.
import { Alert, Button, Checkbox, Group, Modal, MultiSelect, NumberInput, Paper, Radio, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { newIdempotencyKey } from '../../api/client.ts';
import { useAllChannels } from '../../api/channels.ts';
import { useCollections } from '../../api/collections.ts';
import { useApply, usePreview, useProgramming, useSaveFallback, useSaveFiller, useSaveSlots, useTemplate, useUndo } from '../../api/programming.ts';
import type { Collection, ProgrammingPreview, ProgrammingState, Slot } from '../../api/types.ts';
import { titleOf, useVideoTitles } from '../../api/videos.ts';
import { navigate } from '../../router.ts';
import { DataTable } from '../../ui/DataTable.tsx';
import { FormAlert } from '../../ui/errors.tsx';
import { useUnsavedChanges } from '../../ui/unsaved.ts';
import { allOf, Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { span } from '../linear/words.ts';
import { ChannelPicker } from './ChannelPicker.tsx';
import { deadAirWhy, fillerSummary, PAD_TO_CHOICES, padToOf, ROLLS } from './filler.ts';
import { VideoPicker, type Chosen } from './VideoPicker.tsx';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const ORDERS = [
  { value: 'inOrder', label: 'In order' },
  { value: 'shuffle', label: 'Shuffle (seeded)' },
  { value: 'leastRecentlyAired', label: 'Least recently aired' },
];

/** A slot as the form edits it: its videos titled. */
type SlotDraft = Omit<Slot, 'videoIds'> & { videos: Chosen[] };

const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export function ProgrammingScreen({ rest }: { rest: string[] }) {
  const channels = useAllChannels().data;
  const channelId = rest[0] ? Number(rest[0]) : channels?.[0]?.id;
  return (
    <Stack>
      <Title order={2}>Programming</Title>
      <ChannelPicker channels={channels} value={channelId} onChange={(id) => navigate('programming', id)} />
      {channelId !== undefined && <ChannelProgramming key={channelId} channelId={channelId} />}
    </Stack>
  );
}

function ChannelProgramming({ channelId }: { channelId: number }) {
  const programming = useProgramming(channelId);
  const ids = programming.data ? [...programming.data.state.slots.flatMap((s) => s.videoIds), ...programming.data.state.fillerVideoIds] : [];
  // A save that adds ids asks for titles anew: the editors (which hold their own) stay mounted
  // meanwhile rather than turning into a loader, which dropped unsaved filler picks.
  const titles = useVideoTitles(ids, { keepPrevious: true });
  return (
    <Loaded query={allOf({ programming, titles })} label="Loading programming">
      {({ programming, titles }) => <Editors channelId={channelId} {...programming} titles={titles} />}
    </Loaded>
  );
}

/** Every field of a slot: JSON.stringify writes them in this order, whatever the object's. */
const SLOT_FIELDS: string[] = [
  'days',
  'start',
  'videoIds',
  'order',
  'seed',
  'published',
  'end',
  'offAir',
  'collectionId',
  'collections',
  'weight',
  'preRoll',
  'midRoll',
  'postRoll',
  'padTo',
];

function Editors(props: { channelId: number; state: ProgrammingState; slotsEtag: string | undefined; fillerEtag: string | undefined; titles: ReadonlyMap<number, string> }) {
  const { channelId, state, titles } = props;
  const titled = (ids: readonly number[]) => ids.map((id) => ({ id, title: titleOf(titles, id) }));
  const [slots, setSlots] = useState<SlotDraft[]>(() => state.slots.map(({ videoIds, ...s }) => ({ ...s, videos: titled(videoIds) })));
  const [filler, setFiller] = useState<Chosen[]>(() => titled(state.fillerVideoIds));
  const [fillerCollection, setFillerCollection] = useState<number | null>(state.fillerCollectionId);
  const [fallback, setFallback] = useState<number | null>(state.fallbackCollectionId);
  const saveSlots = useSaveSlots(channelId);
  const saveFiller = useSaveFiller(channelId);
  const saveFallback = useSaveFallback(channelId);
  // A slot that plays a collection sends no list of its own.
  const draft = {
    slots: slots.map(({ videos, ...s }): Slot => ({ ...s, videoIds: s.collectionId === undefined && !s.collections ? videos.map((v) => v.id) : [] })),
    fillerVideoIds: fillerCollection === null ? filler.map((v) => v.id) : [],
    ...(fillerCollection === null ? {} : { fillerCollectionId: fillerCollection }),
    fallbackCollectionId: fallback,
  };
  const collections = useCollections().data ?? [];
  const plays = [{ value: '', label: 'Its own playlist' }, ...collections.map((c) => ({ value: String(c.id), label: `Collection: ${c.name}` }))];
  const slotPlays = [...plays, { value: 'random', label: 'Random among collections' }];
  const playsOf = (slot: SlotDraft) => (slot.collections ? 'random' : slot.collectionId === undefined ? '' : String(slot.collectionId));
  const choosePlays = (i: number, v: string) =>
    change(i, v === 'random' ? { collectionId: undefined, collections: [] } : { collectionId: v ? Number(v) : undefined, collections: undefined });
  // Compared field by field in one order (the server's answer may order them otherwise), so a saved plan is not "unsaved".
  const slotsDirty = JSON.stringify(draft.slots, SLOT_FIELDS) !== JSON.stringify(state.slots, SLOT_FIELDS);
  const fillerDirty = draft.fillerVideoIds.join() !== state.fillerVideoIds.join() || fillerCollection !== state.fillerCollectionId || fallback !== state.fallbackCollectionId;
  useUnsavedChanges(slotsDirty || fillerDirty);
  const [saved, setSaved] = useState<string | null>(null);
  const slotsSubmit = useSubmit(async () => {
    await saveSlots.mutateAsync({ slots: draft.slots, etag: props.slotsEtag });
    setSaved(`Slots saved (${draft.slots.length}).`);
  });
  const fillerSubmit = useSubmit(async () => {
    if (fallback !== state.fallbackCollectionId) await saveFallback.mutateAsync({ collectionId: fallback });
    await saveFiller.mutateAsync({ videoIds: draft.fillerVideoIds, collectionId: fillerCollection, etag: props.fillerEtag });
    const name = collections.find((c) => c.id === fillerCollection)?.name;
    setSaved(name === undefined ? `Filler saved (${draft.fillerVideoIds.length} videos).` : `Filler saved (the collection '${name}').`);
  });
  const change = (i: number, patch: Partial<SlotDraft>) => {
    setSaved(null);
    setSlots(slots.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  };
  // A slot's Remove button goes with it once pressed (or, the slot last, is another's), which
  // would drop the focus to the page or leave it on a slot not chosen: it moves to the first field
  // of the slot now in its place (the next one), else of the previous slot, else to Add slot.
  const slotList = useRef<HTMLDivElement>(null);
  const addSlot = useRef<HTMLButtonElement>(null);
  const removedSlot = useRef<{ at: number; left: number } | null>(null);
  useEffect(() => {
    const r = removedSlot.current;
    if (r === null || slots.length !== r.left) return;
    removedSlot.current = null;
    const groups = slotList.current?.querySelectorAll<HTMLElement>('[data-slot]') ?? [];
    (groups[Math.min(r.at, groups.length - 1)]?.querySelector<HTMLElement>('input, button') ?? addSlot.current)?.focus();
  });
  const removeSlot = (i: number) => {
    removedSlot.current = { at: i, left: slots.length - 1 };
    setSlots(slots.filter((_, j) => j !== i));
  };

  return (
    <Stack>
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="xs">
          Time slots ({state.timezone})
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Each slot plays its videos from its start until its end, or, without an end, until the next slot starts, as many as fit; what is left is filled from the filler list when
          you ask. An off-air slot plays nothing until the next slot.
        </Text>
        <FormAlert error={slotsSubmit.error} />
        {saved && (
          <Alert color="green" mb="sm" role="status">
            {saved}
          </Alert>
        )}
        <Stack ref={slotList}>
          {slots.map((slot, i) => (
            <Paper key={i} withBorder p="sm" aria-label={`Slot ${i + 1}`} role="group" data-slot>
              <Group align="flex-end">
                <Checkbox.Group label="Days" value={slot.days.map(String)} onChange={(v) => change(i, { days: v.map(Number).sort() })}>
                  <Group gap="xs" mt={4}>
                    {WEEKDAYS.map((name, d) => (
                      <Checkbox key={name} value={String(d + 1)} label={name} />
                    ))}
                  </Group>
                </Checkbox.Group>
                <TextInput type="time" label="Start" value={slot.start} onChange={(e) => change(i, { start: e.currentTarget.value })} w={130} />
                {!slot.offAir && (
                  <TextInput
                    type="time"
                    label="End"
                    description={slot.end === undefined ? 'at the next slot' : slot.end <= slot.start ? 'the next day' : 'the same day'}
                    value={slot.end ?? ''}
                    onChange={(e) => change(i, { end: e.currentTarget.value === '' ? undefined : e.currentTarget.value })}
                    w={130}
                  />
                )}
                <Checkbox
                  label="Off air"
                  checked={slot.offAir === true}
                  onChange={(e) =>
                    change(
                      i,
                      e.currentTarget.checked
                        ? { offAir: true, end: undefined, videos: [], collectionId: undefined, preRoll: undefined, midRoll: undefined, postRoll: undefined, padTo: undefined }
                        : { offAir: undefined },
                    )
                  }
                />
                {!slot.offAir && <Select label="Plays" data={slotPlays} value={playsOf(slot)} onChange={(v) => choosePlays(i, v ?? '')} allowDeselect={false} w={240} />}
                {!slot.offAir && (
                  <Select label="Order" data={ORDERS} value={slot.order} onChange={(v) => v && change(i, { order: v as Slot['order'] })} allowDeselect={false} w={200} />
                )}
                {!slot.offAir && slot.order === 'shuffle' && (
                  <NumberInput label="Seed" value={slot.seed ?? 0} min={0} onChange={(v) => change(i, { seed: Number(v) || 0 })} w={100} />
                )}
                <Button variant="subtle" color="red" onClick={() => removeSlot(i)}>
                  Remove slot {i + 1}
                </Button>
              </Group>
              {!slot.offAir && (
                <Group align="flex-end" mt="xs">
                  {ROLLS.map(({ field, label }) => (
                    <Select
                      key={field}
                      label={label}
                      aria-label={`Slot ${i + 1} ${label.toLowerCase()}`}
                      data={[{ value: '', label: 'None' }, ...collections.map((c) => ({ value: String(c.id), label: c.name }))]}
                      value={slot[field] ? String(slot[field].collectionId) : ''}
                      onChange={(v) => change(i, { [field]: v ? { collectionId: Number(v) } : undefined })}
                      allowDeselect={false}
                      w={180}
                    />
                  ))}
                  <Select
                    label="Pad to"
                    aria-label={`Slot ${i + 1} pad to`}
                    description="with the filler, after the programme"
                    data={PAD_TO_CHOICES}
                    value={slot.padTo ? String(slot.padTo) : ''}
                    onChange={(v) => change(i, { padTo: padToOf(v) })}
                    allowDeselect={false}
                    w={200}
                  />
                </Group>
              )}
              {!slot.offAir && slot.collectionId === undefined && !slot.collections && (
                <VideoPicker label={`Slot ${i + 1} playlist`} value={slot.videos} onChange={(videos) => change(i, { videos })} />
              )}
              {slot.collections && (
                <RandomChoices label={`Slot ${i + 1}`} collections={collections} value={slot.collections} onChange={(chosen) => change(i, { collections: chosen })} />
              )}
            </Paper>
          ))}
          <Group>
            <Button ref={addSlot} variant="default" onClick={() => setSlots([...slots, { days: [1, 2, 3, 4, 5, 6, 7], start: '06:00', order: 'inOrder', videos: [] }])}>
              Add slot
            </Button>
            <Button loading={slotsSubmit.busy} onClick={() => void slotsSubmit.run()}>
              Save slots
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="xs">
          Filler
        </Title>
        <FormAlert error={fillerSubmit.error} />
        <Select
          label="Filler plays"
          data={plays.map((p) => (p.value === '' ? { ...p, label: 'Its own list' } : p))}
          value={fillerCollection === null ? '' : String(fillerCollection)}
          onChange={(v) => setFillerCollection(v ? Number(v) : null)}
          allowDeselect={false}
          w={240}
          mb="xs"
        />
        {fillerCollection === null && <VideoPicker label="Filler videos" value={filler} onChange={setFiller} />}
        <Select
          label="Dead-air fallback"
          description="fills what is left of a slot after its videos, rolls, padding and filler; without one that time is dead air"
          data={[{ value: '', label: 'None (dead air)' }, ...collections.map((c) => ({ value: String(c.id), label: `Collection: ${c.name}` }))]}
          value={fallback === null ? '' : String(fallback)}
          onChange={(v) => setFallback(v ? Number(v) : null)}
          allowDeselect={false}
          w="100%"
          maw={360}
          mt="xs"
        />
        <Button mt="sm" loading={fillerSubmit.busy} onClick={() => void fillerSubmit.run()}>
          Save filler
        </Button>
      </Paper>
      <Generate channelId={channelId} state={state} titles={titles} draft={slotsDirty || fillerDirty ? draft : undefined} />
    </Stack>
  );
}

/** `draft`: the plan and filler as edited but not saved; preview and apply then use them, as shown. */
function Generate({
  channelId,
  state,
  titles,
  draft,
}: {
  channelId: number;
  state: ProgrammingState;
  titles: ReadonlyMap<number, string>;
  draft: { slots: Slot[]; fillerVideoIds: number[]; fillerCollectionId?: number; fallbackCollectionId: number | null } | undefined;
}) {
  const [from, setFrom] = useState(() => plusDays(today(), 1));
  const [to, setTo] = useState(() => plusDays(today(), 7));
  const [fill, setFill] = useState(true);
  const [replace, setReplace] = useState(false);
  const [preview, setPreview] = useState<(ProgrammingPreview & { scheduleEtag: string | undefined }) | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [templateOpen, setTemplateOpen] = useState(false);
  const previewer = usePreview(channelId);
  const apply = useApply(channelId);
  const undo = useUndo(channelId);
  const body = { from, to, fill, replace, ...(draft ?? {}) };
  const previewSubmit = useSubmit(async () => setPreview(await previewer.mutateAsync(body)));
  const applySubmit = useSubmit(async () => {
    // Against the schedule the preview was made from (its ETag): a change since is a 412.
    const written = await apply.mutateAsync({ body, key: newIdempotencyKey(), ifMatch: preview?.scheduleEtag });
    setDone(`Applied: ${written.data.items.length} blocks written, ${written.data.removed.length} removed.`);
    setPreview(null);
  });
  const undoSubmit = useSubmit(async () => {
    await undo.mutateAsync({ key: newIdempotencyKey() });
    setDone('Undone: the last programming write was reversed.');
  });
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h4" mb="xs">
        Generate
      </Title>
      <FormAlert error={previewSubmit.error ?? applySubmit.error ?? undoSubmit.error} />
      {done && (
        <Alert color="green" mb="sm" role="status">
          {done}
        </Alert>
      )}
      {draft && (
        <Text size="sm" c="dimmed" mb="xs">
          Preview and Apply use the slots and filler as edited above, not yet saved.
        </Text>
      )}
      <Group align="flex-end">
        <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        <Checkbox label="Fill gaps with filler" checked={fill} onChange={(e) => setFill(e.currentTarget.checked)} />
        <Checkbox label="Replace blocks on these dates" checked={replace} onChange={(e) => setReplace(e.currentTarget.checked)} />
      </Group>
      <Group mt="sm">
        <Button variant="default" loading={previewSubmit.busy} onClick={() => void previewSubmit.run()}>
          Preview
        </Button>
        <Button loading={applySubmit.busy} disabled={!preview} onClick={() => void applySubmit.run()}>
          Apply
        </Button>
        <Button variant="light" color="orange" loading={undoSubmit.busy} disabled={!state.undo} onClick={() => void undoSubmit.run()}>
          {state.undo ? `Undo last ${state.undo.kind === 'generate' ? 'apply' : 'copy'} (${state.undo.added} blocks)` : 'Nothing to undo'}
        </Button>
        <Button variant="default" onClick={() => setTemplateOpen(true)}>
          Copy a day or week…
        </Button>
      </Group>
      {preview && <PreviewTable preview={preview} titles={titles} />}
      {templateOpen && <TemplateDialog channelId={channelId} onClose={() => setTemplateOpen(false)} onDone={(message) => setDone(message)} />}
    </Paper>
  );
}

function PreviewTable({ preview, titles }: { preview: ProgrammingPreview; titles: ReadonlyMap<number, string> }) {
  // A preview opens with videos the saved plan does not name (a roll or filler from a collection,
  // unsaved picks): their titles are asked too, so no row reads "Video #id".
  const unnamed = preview.blocks.flatMap((b) => b.videoIds.slice(0, 1)).filter((id) => !titles.has(id));
  const more = useVideoTitles(unnamed, { keepPrevious: true });
  const first = (id: number) => titles.get(id) ?? titleOf(more.data, id);
  return (
    <Stack mt="md" gap="xs">
      <Text fw={500}>
        Preview: {preview.totals.blocks} blocks, {preview.totals.videos} videos ({preview.totals.fillerVideos} filler), {span(preview.totals.deadAirSeconds)} of dead air
        {preview.replaces.length > 0 ? `; replaces ${preview.replaces.length} blocks` : ''}
      </Text>
      {preview.conflicts.map((c) => (
        <Alert key={c.startTime} color="red">
          {c.message}
        </Alert>
      ))}
      {preview.warnings.map((w, i) => (
        <Text key={i} size="sm" c="orange">
          {w.startTime}: slot {w.slot + 1} {w.message}
        </Text>
      ))}
      <DataTable
        label="Preview of the generated blocks"
        rows={preview.blocks}
        rowKey={(b) => b.startTime}
        minWidth={600}
        striped
        columns={[
          { header: 'Start', cell: (b) => b.startTime.replace('T', ' ').slice(0, 16) },
          { header: 'Ends', cell: (b) => b.endTime.replace('T', ' ').slice(0, 16) },
          {
            header: 'Slot ends',
            cell: (b) => (b.slotEndTime.slice(0, 10) === b.startTime.slice(0, 10) ? b.slotEndTime.slice(11, 16) : b.slotEndTime.replace('T', ' ').slice(0, 16)),
          },
          { header: 'Length', cell: (b) => `${span(b.durationSeconds)} of ${span(b.slotSeconds)}` },
          { header: 'Videos', cell: (b) => `${b.videoIds.length - b.fillerVideos} + ${b.fillerVideos} filler` },
          { header: 'Filler', cell: (b) => fillerSummary(b.roles) },
          { header: 'First', cell: (b) => first(b.videoIds[0]!) },
        ]}
      />
      {preview.deadAir.length > 0 && (
        <DataTable
          label="Dead air in the preview"
          rows={preview.deadAir}
          rowKey={(d) => d.startTime}
          minWidth={500}
          columns={[
            { header: 'Dead air from', cell: (d) => d.startTime.replace('T', ' ').slice(0, 16) },
            { header: 'To', cell: (d) => d.endTime.replace('T', ' ').slice(0, 16) },
            { header: 'Length', cell: (d) => span(d.seconds) },
            { header: 'Why', cell: (d) => deadAirWhy(d) },
          ]}
        />
      )}
    </Stack>
  );
}

function TemplateDialog({ channelId, onClose, onDone }: { channelId: number; onClose: () => void; onDone: (message: string) => void }) {
  const [sourceFrom, setSourceFrom] = useState(today);
  const [sourceDays, setSourceDays] = useState<'1' | '7'>('1');
  const [from, setFrom] = useState(() => plusDays(today(), 7));
  const [to, setTo] = useState(() => plusDays(today(), 13));
  const [mode, setMode] = useState<'skip' | 'replace'>('skip');
  const template = useTemplate(channelId);
  const submit = useSubmit(async () => {
    const written = await template.mutateAsync({ body: { sourceFrom, sourceDays: sourceDays === '7' ? 7 : 1, from, to, mode }, key: newIdempotencyKey() });
    const skipped = written.data.skippedDates ?? [];
    onDone(`Copied: ${written.data.items.length} blocks written${skipped.length > 0 ? `; skipped ${skipped.join(', ')}` : ''}.`);
    onClose();
  });
  return (
    <Modal opened onClose={onClose} title="Copy a day or a week">
      <form onSubmit={submit.onSubmit()}>
        <Stack>
          <FormAlert error={submit.error} />
          <Select
            label="Copy"
            data={[
              { value: '1', label: 'One day' },
              { value: '7', label: 'A week' },
            ]}
            value={sourceDays}
            onChange={(v) => v && setSourceDays(v as '1' | '7')}
            allowDeselect={false}
          />
          <TextInput type="date" label={sourceDays === '7' ? 'Week starting' : 'Day'} value={sourceFrom} onChange={(e) => setSourceFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To dates from" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To dates until" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <Radio.Group label="Dates that already have blocks" value={mode} onChange={(v) => setMode(v as 'skip' | 'replace')}>
            <Group mt={4}>
              <Radio value="skip" label="Skip them" />
              <Radio value="replace" label="Replace their blocks" />
            </Group>
          </Radio.Group>
          <Group justify="flex-end">
            <Button type="submit" loading={submit.busy}>
              Copy
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A random slot's collections and their weights (each occurrence plays one, drawn by weight). */
function RandomChoices(props: {
  label: string;
  collections: readonly Collection[];
  value: NonNullable<Slot['collections']>;
  onChange: (chosen: NonNullable<Slot['collections']>) => void;
}) {
  const { collections, value, onChange } = props;
  const weightOf = (id: number) => value.find((c) => c.collectionId === id)?.weight ?? 1;
  return (
    <Group align="flex-end" mt="xs">
      <MultiSelect
        label={`${props.label}: random among`}
        description="each time the slot plays, one of these, more often the heavier"
        data={collections.map((c) => ({ value: String(c.id), label: c.name }))}
        value={value.map((c) => String(c.collectionId))}
        onChange={(ids) => onChange(ids.map((id) => ({ collectionId: Number(id), weight: weightOf(Number(id)) })))}
        w={320}
      />
      {value.map((c) => (
        <NumberInput
          key={c.collectionId}
          label={`Weight of ${collections.find((x) => x.id === c.collectionId)?.name ?? `collection ${c.collectionId}`}`}
          min={1}
          max={100}
          value={c.weight}
          onChange={(w) => onChange(value.map((x) => (x.collectionId === c.collectionId ? { ...x, weight: Math.max(1, Number(w) || 1) } : x)))}
          w={170}
        />
      ))}
    </Group>
  );
}
