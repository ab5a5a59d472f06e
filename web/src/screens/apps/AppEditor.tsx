// One app of one platform: create it when missing, edit it whole and save with PUT (If-Match:
// a stale save is a 412 in words, and what was typed stays), delete it.
import {
  Alert,
  Button,
  Checkbox,
  Code,
  FileInput,
  Group,
  Image,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
  CloseButton,
} from '@mantine/core';
import { Fragment, useState } from 'react';
import { BILLING_PERIODS, STORE_PLATFORMS } from '../../../../src/vocabulary.ts';
import { useApp, useDeleteApp, usePutApp } from '../../api/apps.ts';
import { useChannelList } from '../../api/channels.ts';
import type { Answer } from '../../api/client.ts';
import type { App, AppChannel, StoreProduct } from '../../api/types.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { fieldError, FormAlert, listError } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { useUnsavedChanges } from '../../ui/unsaved.ts';
import { ColourField } from './ColourField.tsx';
import { EpgKeyPanel } from './EpgKeyPanel.tsx';
import { IMAGE_LABELS, imageSlots } from './image-slots.ts';
import { useTvLineup } from './tv-lineup.ts';
import { base64Of, imageDataUrl } from './colours.ts';
import { PhonePreview, TvPreview, type MobileColours, type Theme } from './Previews.tsx';
import { StoreCredentials, type CredentialChanges } from './StoreCredentials.tsx';

export type Platform = 'mobile' | 'roku' | 'firetv' | 'appletv' | 'androidtv';

/**
 * The app as the editor holds it: the Studio's answer (src/studio/contract.ts), less what the
 * service fills on save (id, owner, creation) for an app not saved yet; a new mobile app starts
 * with its four colours only.
 */
export type StudioApp = Omit<App, 'id' | 'ownerId' | 'createdAt' | 'configuredStores' | 'credentialFields' | 'mobile' | 'channels'> & {
  id?: number;
  configuredStores?: readonly string[];
  credentialFields?: App['credentialFields'];
  mobile: (MobileColours & Partial<NonNullable<App['mobile']>>) | null;
  channels: (Omit<AppChannel, 'lastUpdateDate'> & { lastUpdateDate?: string | null })[];
};

const TV_THEME: Theme = { primaryColor: '6f1ab1', secondaryColor: 'b3b3b3', backgroundColor: '101010', styleColor: 'ffffff' };
const MOBILE: MobileColours = { selectionColor: '6f1ab1', headerFooterColor: '222222', backgroundColor: 'ffffff', fontColor: '111111' };

function blankApp(platform: Platform): StudioApp {
  const theme = platform === 'mobile' ? null : platform === 'androidtv' ? { ...TV_THEME, backgroundColor: undefined } : { ...TV_THEME };
  return {
    platform,
    appName: '',
    slug: null,
    about: null,
    privacyPolicyLink: null,
    isPaid: false,
    timeFormat: '12-hour',
    adLink: null,
    apiKey: null,
    theme,
    mobile: platform === 'mobile' ? { ...MOBILE } : null,
    images: {},
    storeProducts: [],
    vodPpv: { isEnabled: false, accessDurationHours: 48, previewSeconds: 0, storeProducts: [] },
    channels: [],
  };
}

export function AppEditor({ platform }: { platform: Platform }) {
  const app = useApp(platform);
  return (
    <Loaded query={app} label="Loading app" fresh>
      {(read) => <Editor platform={platform} read={read} />}
    </Loaded>
  );
}

function Editor({ platform, read }: { platform: Platform; read: Answer<App> | null }) {
  const [app, setApp] = useState<StudioApp | null>(read?.data ?? null);
  const [etag, setEtag] = useState(read?.etag);
  const [exists, setExists] = useState(read !== null);
  const [credentials, setCredentials] = useState<CredentialChanges>({});
  const [saved, setSaved] = useState('');
  // Edits wait for "Save app" (one PUT of the whole app); leaving before it asks first.
  const [dirty, setDirty] = useState(false);
  useUnsavedChanges(dirty);
  const put = usePutApp(platform);
  const deleteApp = useDeleteApp(platform);
  const lineup = useTvLineup(app?.channels ?? []);

  const set = (patch: Partial<StudioApp>) => {
    setApp((current) => (current ? { ...current, ...patch } : current));
    setDirty(true);
    setSaved('');
  };

  const submit = useSubmit(async (action: 'save' | 'delete') => {
    setSaved('');
    if (action === 'delete') {
      await deleteApp.mutateAsync(etag);
      setApp(null);
      setExists(false);
      setDirty(false);
      return setSaved('App deleted.');
    }
    if (!app) return;
    const { configuredStores: _c, credentialFields: _f, ...body } = app;
    // Only the keys typed or removed are sent; every other credential stays as stored.
    const credentialChanges = Object.keys(credentials).length > 0 ? credentials : undefined;
    const answer = await put.mutateAsync({ body: credentialChanges ? { ...body, credentialChanges } : body, etag: exists ? etag : undefined });
    setApp(answer.data);
    setEtag(answer.etag);
    setExists(true);
    setCredentials({});
    setDirty(false);
    setSaved('App saved. The apps read it on their next request.');
  });
  const { error, busy } = submit;

  if (!app)
    return (
      <Stack align="flex-start">
        {saved ? <Alert color="green">{saved}</Alert> : null}
        <Text>There is no {platform} app yet.</Text>
        <Button
          onClick={() => {
            setApp(blankApp(platform));
            setDirty(true);
          }}
        >
          Create the {platform} app
        </Button>
      </Stack>
    );

  const colourField = (group: 'theme' | 'mobile', key: string, label: string) => {
    const values = (app[group] ?? {}) as Record<string, string | null | undefined>;
    return (
      <ColourField
        key={`${group}.${key}`}
        label={label}
        value={values[key] ?? ''}
        onChange={(value) => set({ [group]: { ...values, [key]: value } } as Partial<StudioApp>)}
        error={fieldError(error, `${group}.${key}`)}
      />
    );
  };

  return (
    <Stack>
      <FormAlert
        error={error}
        fields={[
          'appName',
          'isPaid',
          'slug',
          'about',
          'privacyPolicyLink',
          'timeFormat',
          'adLink',
          'apiKey',
          'theme',
          'mobile',
          'images',
          'storeProducts',
          'vodPpv',
          'storeCredentials',
          'channels',
        ]}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap="sm">
          <TextInput label="App name" value={app.appName} onChange={(e) => set({ appName: e.currentTarget.value })} error={fieldError(error, 'appName')} />
          <TextInput label="Slug" value={app.slug ?? ''} onChange={(e) => set({ slug: e.currentTarget.value || null })} error={fieldError(error, 'slug')} />
          <Textarea label="About" autosize minRows={2} value={app.about ?? ''} onChange={(e) => set({ about: e.currentTarget.value || null })} error={fieldError(error, 'about')} />
          <TextInput
            label="Privacy policy link"
            value={app.privacyPolicyLink ?? ''}
            onChange={(e) => set({ privacyPolicyLink: e.currentTarget.value || null })}
            error={fieldError(error, 'privacyPolicyLink')}
          />
          <Group grow>
            <Select label="Time format" data={['12-hour', '24-hour']} value={app.timeFormat} onChange={(v) => v && set({ timeFormat: v })} allowDeselect={false} />
            <Switch
              label="Paid app (viewers subscribe)"
              checked={app.isPaid}
              onChange={(e) => set({ isPaid: e.currentTarget.checked })}
              mt="lg"
              error={fieldError(error, 'isPaid')}
            />
          </Group>
          {platform === 'roku' ? (
            <>
              <TextInput label="Ad link" value={app.adLink ?? ''} onChange={(e) => set({ adLink: e.currentTarget.value || null })} error={fieldError(error, 'adLink')} />
              <TextInput label="API key (GUID)" value={app.apiKey ?? ''} onChange={(e) => set({ apiKey: e.currentTarget.value || null })} error={fieldError(error, 'apiKey')} />
            </>
          ) : null}
        </Stack>
        <Stack gap="sm">
          <Title order={3} size="h5">
            Colours
          </Title>
          {platform === 'mobile' ? (
            <>
              <SimpleGrid cols={2}>
                {colourField('mobile', 'selectionColor', 'Selection colour')}
                {colourField('mobile', 'headerFooterColor', 'Header and footer colour')}
                {colourField('mobile', 'backgroundColor', 'Background colour')}
                {colourField('mobile', 'fontColor', 'Text colour')}
              </SimpleGrid>
              <PhonePreview colours={(app.mobile ?? MOBILE) as MobileColours} appName={app.appName} />
            </>
          ) : (
            <>
              <SimpleGrid cols={2}>
                {colourField('theme', 'primaryColor', 'Primary colour')}
                {colourField('theme', 'secondaryColor', 'Secondary colour')}
                {platform !== 'androidtv' ? colourField('theme', 'backgroundColor', 'Background colour') : null}
                {colourField('theme', 'styleColor', 'Style colour')}
              </SimpleGrid>
              {app.theme ? (
                <TvPreview theme={app.theme} appName={app.appName} hasBackground={platform !== 'androidtv'} lineup={lineup} />
              ) : (
                <Button variant="light" onClick={() => set({ theme: platform === 'androidtv' ? { ...TV_THEME, backgroundColor: undefined } : { ...TV_THEME } })}>
                  Set a theme
                </Button>
              )}
            </>
          )}
        </Stack>
      </SimpleGrid>
      <Images platform={platform} images={app.images} error={error} onChange={(images) => set({ images })} />
      <Products
        label="Subscription products"
        products={app.storeProducts}
        path="storeProducts"
        error={error}
        periods={BILLING_PERIODS.filter((p) => p !== 'OneTime')}
        onChange={(storeProducts) => set({ storeProducts })}
      />
      <Paper withBorder p="sm">
        <Title order={3} size="h5" mb="xs">
          VOD pay-per-view
        </Title>
        <Group>
          <Switch label="Sell videos one by one" checked={app.vodPpv.isEnabled} onChange={(e) => set({ vodPpv: { ...app.vodPpv, isEnabled: e.currentTarget.checked } })} />
          <NumberInput
            label="Access (hours)"
            value={app.vodPpv.accessDurationHours}
            onChange={(v) => set({ vodPpv: { ...app.vodPpv, accessDurationHours: Number(v) } })}
            error={fieldError(error, 'vodPpv.accessDurationHours')}
            w={140}
          />
          <NumberInput
            label="Free preview (seconds)"
            value={app.vodPpv.previewSeconds}
            onChange={(v) => set({ vodPpv: { ...app.vodPpv, previewSeconds: Number(v) } })}
            error={fieldError(error, 'vodPpv.previewSeconds')}
            w={180}
          />
        </Group>
        <Products
          label="Pay-per-view products"
          products={app.vodPpv.storeProducts}
          path="vodPpv.storeProducts"
          error={error}
          periods={['OneTime']}
          onChange={(storeProducts) => set({ vodPpv: { ...app.vodPpv, storeProducts } })}
        />
      </Paper>
      <StoreCredentials
        fields={app.credentialFields ?? {}}
        changes={credentials}
        onChange={(changes) => {
          setCredentials(changes);
          setDirty(true);
          setSaved('');
        }}
      >
        {exists && app.configuredStores && app.configuredStores.length > 0 ? (
          <Text size="sm" mb="xs" aria-label="Store notification URLs">
            Store notification URLs (set them in each store's console; docs/entitlements.md: Store notifications):{' '}
            {/* Spaced, and broken anywhere when one is wider than the line: side by side with no
                space they made one word, wider than the screen at any width with four stores. */}
            {app.configuredStores.map((store) => (
              <Fragment key={store}>
                <Code style={{ overflowWrap: 'anywhere' }}>{`${location.origin}/api/v1/stores/${store}/${app.id}`}</Code>{' '}
              </Fragment>
            ))}
          </Text>
        ) : null}
      </StoreCredentials>
      <Assignments channels={app.channels} error={error} onChange={(channels) => set({ channels })} />
      {exists ? <EpgKeyPanel platform={platform} /> : null}
      <Group>
        <Button onClick={() => void submit.run('save')} loading={busy}>
          Save app
        </Button>
        {exists ? (
          <Button color="red" variant="light" onClick={() => void submit.run('delete')}>
            Delete app
          </Button>
        ) : null}
        {dirty ? (
          <Text size="sm" c="dimmed">
            Unsaved changes
          </Text>
        ) : null}
      </Group>
      {/* Beside the button that was pressed, not at the top of a long form (issue 30: it appeared off-screen). */}
      {saved ? (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setSaved('')}>
          {saved}
        </Alert>
      ) : null}
    </Stack>
  );
}

function Images({ platform, images, error, onChange }: { platform: Platform; images: Record<string, string>; error: unknown; onChange: (images: Record<string, string>) => void }) {
  async function upload(role: string, file: File | null) {
    if (!file) return;
    onChange({ ...images, [role]: base64Of(new Uint8Array(await file.arrayBuffer())) });
  }
  const without = (role: string) => Object.fromEntries(Object.entries(images).filter(([r]) => r !== role));
  return (
    <Paper withBorder p="sm">
      <Title order={3} size="h5" mb="xs">
        Images (PNG or JPEG)
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {imageSlots(platform, images).map((role) => (
          <Group key={role} wrap="nowrap" align="flex-end">
            {images[role] ? <Image src={imageDataUrl(images[role])} alt={`${IMAGE_LABELS[role]} preview`} w={48} h={48} fit="contain" /> : null}
            <FileInput
              label={IMAGE_LABELS[role]}
              placeholder={images[role] ? 'Replace…' : 'Upload…'}
              accept="image/png,image/jpeg"
              onChange={(file) => void upload(role, file)}
              error={fieldError(error, `images.${role}`)}
              style={{ flex: 1, minWidth: 0 }}
            />
            {images[role] ? <CloseButton aria-label={`Remove the ${IMAGE_LABELS[role].toLowerCase()}`} onClick={() => onChange(without(role))} /> : null}
          </Group>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

function Products({
  label,
  products,
  path,
  error,
  periods,
  onChange,
}: {
  label: string;
  products: StoreProduct[];
  path: string;
  error: unknown;
  periods: readonly string[];
  onChange: (products: StoreProduct[]) => void;
}) {
  const update = (index: number, patch: Partial<StoreProduct>) => onChange(products.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  const columns: Column<StoreProduct>[] = [
    {
      header: 'Store',
      cell: (p, i) => (
        <Select
          aria-label={`Store of product ${i + 1}`}
          data={[...STORE_PLATFORMS]}
          value={p.storePlatform}
          onChange={(v) => v && update(i, { storePlatform: v as StoreProduct['storePlatform'] })}
          allowDeselect={false}
          error={fieldError(error, `${path}[${i}].storePlatform`)}
        />
      ),
    },
    {
      header: 'Product id',
      cell: (p, i) => (
        <TextInput
          aria-label={`Product id ${i + 1}`}
          value={p.productId}
          onChange={(e) => update(i, { productId: e.currentTarget.value })}
          error={fieldError(error, `${path}.${i}.productId`) ?? fieldError(error, `${path}[${i}].productId`)}
        />
      ),
    },
    {
      header: 'Display name',
      cell: (p, i) => <TextInput aria-label={`Display name ${i + 1}`} value={p.displayName ?? ''} onChange={(e) => update(i, { displayName: e.currentTarget.value })} />,
    },
    {
      header: 'Period',
      cell: (p, i) => (
        <Select
          aria-label={`Period of product ${i + 1}`}
          data={[...periods]}
          value={p.billingPeriod}
          onChange={(v) => v && update(i, { billingPeriod: v as StoreProduct['billingPeriod'] })}
          allowDeselect={false}
        />
      ),
    },
    {
      header: 'Active',
      cell: (p, i) => <Checkbox aria-label={`Product ${i + 1} active`} checked={p.isActive ?? true} onChange={(e) => update(i, { isActive: e.currentTarget.checked })} />,
    },
    { header: '', cell: (_p, i) => <CloseButton aria-label={`Remove product ${i + 1}`} onClick={() => onChange(products.filter((_, j) => j !== i))} /> },
  ];
  return (
    <Stack gap="xs" mt="xs">
      <Text fw={500}>{label}</Text>
      <DataTable label={label} columns={columns} rows={products} rowKey={(_p, i) => i} minWidth={640} />
      <Button
        variant="light"
        size="xs"
        w="fit-content"
        onClick={() => onChange([...products, { storePlatform: 'Apple', productId: '', displayName: '', billingPeriod: defaultPeriod(periods), isActive: true }])}
      >
        Add a product to {label.toLowerCase()}
      </Button>
    </Stack>
  );
}

type Carried = StudioApp['channels'][number];

function Assignments({ channels, error, onChange }: { channels: Carried[]; error: unknown; onChange: (channels: Carried[]) => void }) {
  const owned = useChannelList().data ?? [];
  const carried = new Map(channels.map((c) => [c.channelId, c]));
  const update = (channelId: number, patch: Partial<Carried> | null) => {
    if (patch === null) return onChange(channels.filter((c) => c.channelId !== channelId));
    const current = carried.get(channelId);
    onChange(
      current
        ? channels.map((c) => (c.channelId === channelId ? { ...c, ...patch } : c))
        : [...channels, { channelId, sorting: channels.length + 1, channelNumber: null, useVastSettings: false, ...patch }],
    );
  };
  // A detail names a row by its place in the body's list, which is `channels` in this order.
  const rowError = (channelId: number, field: string) => {
    const index = channels.findIndex((c) => c.channelId === channelId);
    return index < 0 ? undefined : fieldError(error, `channels[${index}].${field}`);
  };
  const headingError = listError(error, 'channels', /^channels\[\d+\]\.(channelNumber|sorting)$/);
  const columns: Column<{ id: number; name: string }>[] = [
    { header: 'Carried', cell: (c) => <Checkbox aria-label={`Carry ${c.name}`} checked={carried.has(c.id)} onChange={(e) => update(c.id, e.currentTarget.checked ? {} : null)} /> },
    { header: 'Channel', cell: (c) => c.name },
    {
      header: 'Sorting',
      cell: (c) => (
        <NumberInput
          aria-label={`Sorting of ${c.name}`}
          disabled={!carried.has(c.id)}
          value={carried.get(c.id)?.sorting ?? ''}
          onChange={(v) => update(c.id, { sorting: v === '' ? null : Number(v) })}
          w={90}
          error={rowError(c.id, 'sorting')}
        />
      ),
    },
    {
      header: 'Channel number',
      cell: (c) => (
        <TextInput
          aria-label={`Channel number of ${c.name}`}
          disabled={!carried.has(c.id)}
          value={carried.get(c.id)?.channelNumber ?? ''}
          onChange={(e) => update(c.id, { channelNumber: e.currentTarget.value || null })}
          w={110}
          error={rowError(c.id, 'channelNumber')}
        />
      ),
    },
    {
      header: "Channel's VAST",
      cell: (c) => (
        <Checkbox
          aria-label={`Use the VAST settings of ${c.name}`}
          disabled={!carried.has(c.id)}
          checked={carried.get(c.id)?.useVastSettings ?? false}
          onChange={(e) => update(c.id, { useVastSettings: e.currentTarget.checked })}
        />
      ),
    },
  ];
  return (
    <Paper withBorder p="sm">
      <Title order={3} size="h5" mb="xs">
        Channels in this app
      </Title>
      {headingError ? (
        <Text c="red" size="sm">
          {headingError}
        </Text>
      ) : null}
      <DataTable label="Channels in this app" columns={columns} rows={owned} rowKey={(c) => c.id} minWidth={520} />
    </Paper>
  );
}

/** A new subscription product sells monthly unless the creator picks otherwise (the most common store period; weekly, first in the list, surprised a creator). */
function defaultPeriod(periods: readonly string[]): StoreProduct['billingPeriod'] {
  return (periods.includes('Monthly') ? 'Monthly' : periods[0]) as StoreProduct['billingPeriod'];
}
