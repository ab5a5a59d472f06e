// One form per store (Apple, Google, Amazon, Roku), its fields named as the store's own console
// names them (src/vocabulary.ts STORE_CREDENTIAL_FIELDS). Secrets are write-only: the Studio says
// only whether each is set, so a secret field starts empty and typing replaces it. What is typed
// is sent as credentialChanges (one key at a time); keys and stores not touched are kept.
import { Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { CREDENTIAL_STORES, STORE_CREDENTIAL_FIELDS, STORE_PLATFORMS, type CredentialStore, type StoreCredentialField } from '../../../../src/vocabulary.ts';

/** Per store, keys changed: a string sets, null removes. */
export type CredentialChanges = Partial<Record<CredentialStore, Record<string, string | null>>>;
/** Per configured store, the keys set: a non-secret one with its value, a secret one as true. */
export type CredentialFields = Partial<Record<CredentialStore, Record<string, string | true>>>;

/** The store's name as its sellers know it. */
export const STORE_TITLES: Record<CredentialStore, string> = { apple: 'Apple App Store', google: 'Google Play', amazon: 'Amazon Appstore', roku: 'Roku Pay' };

/** The changes with `key` of `store` set to `value` (undefined: back to what is stored). */
export function changed(changes: CredentialChanges, store: CredentialStore, key: string, value: string | null | undefined): CredentialChanges {
  const keys = { ...(changes[store] ?? {}) };
  if (value === undefined) delete keys[key];
  else keys[key] = value;
  const next = { ...changes };
  if (Object.keys(keys).length === 0) delete next[store];
  else next[store] = keys;
  return next;
}

/**
 * The fields of a Google service account's JSON key file (as Google Cloud downloads it) as
 * credential changes, or the reason it is not one.
 */
export function serviceAccountFields(text: string): Record<string, string> | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'This is not a JSON key file: paste the whole file Google Cloud downloaded.';
  }
  const key = (json ?? {}) as Record<string, unknown>;
  if (key['type'] !== 'service_account' || typeof key['client_email'] !== 'string' || typeof key['private_key'] !== 'string') {
    return 'This JSON is not a service account key (it needs type "service_account", client_email and private_key).';
  }
  return {
    clientEmail: key['client_email'],
    privateKey: key['private_key'],
    ...(typeof key['private_key_id'] === 'string' ? { privateKeyId: key['private_key_id'] } : {}),
    ...(typeof key['token_uri'] === 'string' ? { tokenUri: key['token_uri'] } : {}),
  };
}

export function StoreCredentials({
  fields,
  changes,
  onChange,
  children,
}: {
  children?: ReactNode;
  fields: CredentialFields;
  changes: CredentialChanges;
  onChange: (changes: CredentialChanges) => void;
}) {
  return (
    <Paper withBorder p="sm">
      <Title order={3} size="h5" mb="xs">
        Store credentials
      </Title>
      <Text size="sm" mb="xs">
        An app sells on a store only with that store's credentials: the service verifies each purchase with the store. Secrets are never shown again; type one to replace it.
      </Text>
      {children}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {CREDENTIAL_STORES.map((store) => (
          <StoreForm key={store} store={store} set={fields[store]} changes={changes} onChange={onChange} />
        ))}
      </SimpleGrid>
    </Paper>
  );
}

function StoreForm({
  store,
  set,
  changes,
  onChange,
}: {
  store: CredentialStore;
  set: Record<string, string | true> | undefined;
  changes: CredentialChanges;
  onChange: (changes: CredentialChanges) => void;
}) {
  const title = STORE_TITLES[store];
  const storeName = STORE_PLATFORMS[CREDENTIAL_STORES.indexOf(store)];
  const [jsonKey, setJsonKey] = useState('');
  const [jsonError, setJsonError] = useState<string | undefined>();
  const [jsonNote, setJsonNote] = useState('');
  const typed = changes[store] ?? {};
  const field = (f: StoreCredentialField) => {
    const stored = set?.[f.key];
    const change = typed[f.key];
    const isSet = change === null ? false : change !== undefined ? change !== '' : stored !== undefined;
    const state = f.secret ? (change === null ? 'Will be removed' : stored !== undefined ? 'Set' : 'Not set') : undefined;
    const description = [f.required ? `Required to sell on ${storeName}` : null, state].filter(Boolean).join(' · ') || undefined;
    const label = f.label;
    if (f.secret) {
      const Input = f.multiline ? Textarea : PasswordInput;
      return (
        <Group key={f.key} wrap="nowrap" align="flex-end">
          <Input
            label={label}
            description={description}
            placeholder={stored !== undefined && change !== null ? 'Set: type to replace' : 'Not set'}
            autoComplete="off"
            {...(f.multiline ? { autosize: true, minRows: 2 } : {})}
            value={typeof change === 'string' ? change : ''}
            onChange={(e: { currentTarget: { value: string } }) => onChange(changed(changes, store, f.key, e.currentTarget.value === '' ? undefined : e.currentTarget.value))}
            style={{ flex: 1, minWidth: 0 }}
          />
          {stored !== undefined && change !== null ? (
            <Button
              variant="subtle"
              size="xs"
              color="red"
              aria-label={`Remove the ${label} (${title})`}
              onClick={(e) => {
                // The button goes once pressed (the secret is to be removed), which would drop the
                // focus to the page: it moves to the secret's field, now described "Will be removed".
                e.currentTarget.parentElement?.querySelector<HTMLElement>('input, textarea')?.focus();
                onChange(changed(changes, store, f.key, null));
              }}
            >
              Remove
            </Button>
          ) : null}
        </Group>
      );
    }
    const value = typeof change === 'string' ? change : change === null ? '' : typeof stored === 'string' ? stored : '';
    return (
      <TextInput
        key={f.key}
        label={label}
        description={description}
        value={value}
        data-set={isSet ? 'yes' : 'no'}
        onChange={(e) => {
          const next = e.currentTarget.value;
          // Emptied: removed if stored, else nothing to send; back to the stored value: no change.
          onChange(changed(changes, store, f.key, next === '' ? (stored !== undefined ? null : undefined) : next === stored ? undefined : next));
        }}
      />
    );
  };
  return (
    <Paper withBorder p="sm" role="group" aria-label={`${title} credentials`}>
      <Stack gap="xs">
        <Title order={4} size="h6">
          {title}{' '}
          {set ? (
            <Text span size="xs" c="dimmed">
              (configured)
            </Text>
          ) : (
            <Text span size="xs" c="dimmed">
              (not configured)
            </Text>
          )}
        </Title>
        {store === 'google' ? (
          <Stack gap={4}>
            <Textarea
              label="Service account JSON key"
              description={jsonNote || 'Paste the key file Google Cloud downloaded: it fills the service account fields below.'}
              autosize
              minRows={2}
              maxRows={6}
              value={jsonKey}
              error={jsonError}
              onChange={(e) => {
                const text = e.currentTarget.value;
                setJsonKey(text);
                if (text.trim() === '') return setJsonError(undefined);
                const fields = serviceAccountFields(text);
                if (typeof fields === 'string') return setJsonError(fields);
                // The key file is not kept on the page: its fields are now in the changes to save.
                setJsonError(undefined);
                setJsonKey('');
                setJsonNote(`Read the key of ${fields['clientEmail']!}; Save app keeps it.`);
                onChange(Object.entries(fields).reduce((next, [key, value]) => changed(next, 'google', key, value), changes));
              }}
            />
          </Stack>
        ) : null}
        {STORE_CREDENTIAL_FIELDS[store].map(field)}
        {set ? (
          <Button
            variant="subtle"
            color="red"
            size="xs"
            w="fit-content"
            onClick={() => onChange({ ...changes, [store]: Object.fromEntries(Object.keys(set).map((k) => [k, null])) })}
          >
            Remove all {title} credentials
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}
