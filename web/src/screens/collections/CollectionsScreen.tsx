// Collections: named sets of videos that slots of any channel play (the Programming screen picks
// one for a slot). A manual collection is a list picked like a playlist; a smart one is rules
// (category, provider, length, a word of the title) that the server resolves whenever the plan is
// previewed or applied, so a video added later joins it. Each row says which slots play it.
import { Alert, Button, Group, MultiSelect, NumberInput, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useCategories } from '../../api/channels.ts';
import { newIdempotencyKey } from '../../api/client.ts';
import { useCollections, useCreateCollection, useDeleteCollection, useReplaceCollection } from '../../api/collections.ts';
import type { Collection, CollectionBody, CollectionRules } from '../../api/types.ts';
import { titleOf, useVideoTitles } from '../../api/videos.ts';
import { DataTable } from '../../ui/DataTable.tsx';
import { fieldError, FormAlert } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { confirmLeave, useUnsavedChanges } from '../../ui/unsaved.ts';
import { VideoPicker, type Chosen } from '../schedule/VideoPicker.tsx';

const PROVIDERS = ['YouTube', 'Vimeo', 'Custom'];

export function CollectionsScreen() {
  const collections = useCollections();
  const [editing, setEditing] = useState<Collection | 'new' | null>(null);
  // The editor's Close goes with the editor, which would drop the focus to the page: it returns to
  // the button that opened the editor (the collection's Edit, or New collection), or to New
  // collection when that button is gone (its collection deleted).
  const opener = useRef<HTMLElement | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const closed = useRef<'closed' | 'deleted' | null>(null);
  const open = (e: MouseEvent<HTMLElement>, what: Collection | 'new') => {
    opener.current = e.currentTarget;
    setEditing(what);
  };
  useEffect(() => {
    const how = closed.current;
    closed.current = null;
    if (editing !== null || how === null) return;
    (how === 'closed' && opener.current?.isConnected ? opener.current : newButton.current)?.focus();
  }, [editing]);
  return (
    <Stack>
      <Title order={2}>Collections</Title>
      <Text size="sm" c="dimmed">
        A collection is a set of videos any of your channels' time slots can play. Pick its videos, or give rules and every matching video is in it, new ones included.
      </Text>
      <Loaded query={collections} label="Loading collections">
        {(list) => (
          <>
            <DataTable
              label="Collections"
              rows={list}
              rowKey={(c) => c.id}
              empty="No collections yet."
              minWidth={560}
              columns={[
                { header: 'Name', cell: (c) => c.name },
                { header: 'Kind', cell: (c) => (c.kind === 'manual' ? 'Picked videos' : 'Rules') },
                { header: 'Videos', cell: (c) => c.videoIds.length },
                { header: 'Played by', cell: (c) => (c.usedBy.length === 0 ? 'no slot' : c.usedBy.map((u) => `channel ${u.channelId}, ${u.when}`).join('; ')) },
                {
                  header: '',
                  cell: (c) => (
                    <Button size="xs" variant="default" onClick={(e) => open(e, c)} aria-label={`Edit ${c.name}`}>
                      Edit
                    </Button>
                  ),
                },
              ]}
            />
            <Group>
              <Button ref={newButton} onClick={(e) => open(e, 'new')}>
                New collection
              </Button>
            </Group>
          </>
        )}
      </Loaded>
      {editing !== null && (
        <CollectionForm
          key={editing === 'new' ? 'new' : editing.id}
          collection={editing === 'new' ? undefined : editing}
          onDone={(deleted) => {
            closed.current = deleted ? 'deleted' : 'closed';
            setEditing(null);
          }}
        />
      )}
    </Stack>
  );
}

function CollectionForm({ collection, onDone }: { collection: Collection | undefined; onDone: (deleted?: boolean) => void }) {
  const titles = useVideoTitles(collection?.kind === 'manual' ? collection.videoIds : []);
  return (
    <Loaded query={titles} label="Loading the collection">
      {(titles) => (
        <Form collection={collection} initial={(collection?.kind === 'manual' ? collection.videoIds : []).map((id) => ({ id, title: titleOf(titles, id) }))} onDone={onDone} />
      )}
    </Loaded>
  );
}

/** Minutes as the form shows them, from the rules' seconds. */
const minutes = (seconds: number | undefined) => (seconds === undefined ? '' : seconds / 60);

function Form({ collection, initial, onDone }: { collection: Collection | undefined; initial: Chosen[]; onDone: (deleted?: boolean) => void }) {
  const categories = useCategories().data ?? [];
  const [name, setName] = useState(collection?.name ?? '');
  const [kind, setKind] = useState<'manual' | 'smart'>(collection?.kind ?? 'manual');
  const [videos, setVideos] = useState<Chosen[]>(initial);
  const [rules, setRules] = useState<CollectionRules>(collection?.rules ?? {});
  const [saved, setSaved] = useState<string | null>(null);
  const create = useCreateCollection();
  const replace = useReplaceCollection();
  const remove = useDeleteCollection();
  const body: CollectionBody = kind === 'manual' ? { name, videoIds: videos.map((v) => v.id) } : { name, rules };
  // What was last saved (or opened): an edit after a save is unsaved again.
  const [baseline, setBaseline] = useState(() =>
    JSON.stringify(
      collection
        ? collection.kind === 'manual'
          ? { name: collection.name, videoIds: collection.videoIds }
          : { name: collection.name, rules: collection.rules }
        : { name: '', videoIds: [] },
    ),
  );
  const dirty = JSON.stringify(body) !== baseline;
  useUnsavedChanges(dirty);
  const save = useSubmit(async () => {
    if (collection) await replace.mutateAsync({ id: collection.id, body });
    else await create.mutateAsync({ body, key: newIdempotencyKey() });
    setBaseline(JSON.stringify(body));
    setSaved(`Collection '${name.trim()}' saved.`);
  });
  const close = () => {
    if (!dirty || confirmLeave()) onDone();
  };
  const drop = useSubmit(async () => {
    if (!collection) return;
    await remove.mutateAsync({ id: collection.id });
    onDone(true);
  });
  const rule = (patch: Partial<CollectionRules>) => {
    const next: Record<string, unknown> = { ...rules, ...patch };
    for (const key of Object.keys(next)) if (next[key] === undefined || (Array.isArray(next[key]) && (next[key] as unknown[]).length === 0)) delete next[key];
    setRules(next as CollectionRules);
  };
  const seconds = (value: string | number) => (value === '' ? undefined : Number(value) * 60);

  return (
    <Paper withBorder p="md" role="form" aria-label={collection ? `Edit collection ${collection.name}` : 'New collection'}>
      <Title order={3} size="h4" mb="sm">
        {collection ? `Edit '${collection.name}'` : 'New collection'}
      </Title>
      <FormAlert error={save.error ?? drop.error} fields={['name', 'videoIds', 'rules']} />
      {saved && (
        <Alert color="green" mb="sm" role="status">
          {saved}
        </Alert>
      )}
      <Stack>
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldError(save.error, 'name')} maxLength={100} required />
        <Radio.Group label="Videos" value={kind} onChange={(v) => setKind(v as 'manual' | 'smart')}>
          <Group mt={4}>
            <Radio value="manual" label="Picked by hand" />
            <Radio value="smart" label="Every video matching rules" />
          </Group>
        </Radio.Group>
        {kind === 'manual' ? (
          <>
            <VideoPicker label="Videos of the collection" value={videos} onChange={setVideos} />
            {fieldError(save.error, 'videoIds') && (
              <Text c="red" size="sm">
                {fieldError(save.error, 'videoIds')}
              </Text>
            )}
          </>
        ) : (
          <Group align="flex-end">
            <MultiSelect
              label="Categories"
              placeholder="any"
              data={categories.map((c) => ({ value: String(c.id), label: c.name }))}
              value={(rules.categoryIds ?? []).map(String)}
              onChange={(v) => rule({ categoryIds: v.map(Number) })}
              w={220}
            />
            <MultiSelect label="Providers" placeholder="any" data={PROVIDERS} value={rules.providerNames ?? []} onChange={(v) => rule({ providerNames: v })} w={220} />
            <NumberInput label="At least (minutes)" min={0} value={minutes(rules.minSeconds)} onChange={(v) => rule({ minSeconds: seconds(v) })} w={150} />
            <NumberInput label="At most (minutes)" min={0} value={minutes(rules.maxSeconds)} onChange={(v) => rule({ maxSeconds: seconds(v) })} w={150} />
            <TextInput
              label="Title contains"
              value={rules.titleContains ?? ''}
              onChange={(e) => rule({ titleContains: e.currentTarget.value === '' ? undefined : e.currentTarget.value })}
              w={200}
            />
          </Group>
        )}
        {fieldError(save.error, 'rules') && (
          <Text c="red" size="sm">
            {fieldError(save.error, 'rules')}
          </Text>
        )}
        {collection && collection.usedBy.length > 0 && (
          <Text size="sm">Played by {collection.usedBy.map((u) => `slot ${u.slot} of channel ${u.channelId} (${u.when})`).join(', ')}.</Text>
        )}
        <Group>
          <Button loading={save.busy} onClick={() => void save.run()}>
            Save collection
          </Button>
          {collection && (
            <Button variant="subtle" color="red" loading={drop.busy} onClick={() => void drop.run()}>
              Delete collection
            </Button>
          )}
          <Button variant="default" onClick={close}>
            Close
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
