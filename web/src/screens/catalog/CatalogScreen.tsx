// Import & export: the owner's slice of the catalog as a file (the same format as
// `channelnet import`), and a file brought back: checked first (a dry run that says what it would
// write or, in words with their paths, what is wrong), then imported in one transaction.
import { Alert, Button, FileInput, Group, List, Loader, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { exportCatalog, useImport } from '../../api/catalog.ts';
import { ApiError, newIdempotencyKey } from '../../api/client.ts';
import { DataTable } from '../../ui/DataTable.tsx';
import { formMessage } from '../../ui/errors.tsx';
import { Panel } from '../../ui/Panel.tsx';
import { saveFile } from '../../ui/save-file.ts';
import { useSubmit } from '../../ui/submit.ts';

type Counts = Record<string, number>;

export function CatalogScreen(_props: { rest: string[] }) {
  return (
    <Stack>
      <Title order={2}>Import &amp; export</Title>
      <Export />
      <Import />
    </Stack>
  );
}

function Export() {
  const [done, setDone] = useState('');
  const run = useSubmit(async () => {
    const blob = await exportCatalog();
    const document = JSON.parse(await blob.text()) as { channels?: unknown[]; videos?: unknown[]; apps?: unknown[] };
    saveFile(blob, `channelnet-export-${new Date().toISOString().slice(0, 10)}.json`);
    setDone(
      `Exported ${document.channels?.length ?? 0} channels, ${document.videos?.length ?? 0} videos and ${document.apps?.length ?? 0} apps (no passwords or store credentials).`,
    );
  });
  const { error, busy } = run;

  return (
    <Panel title="Export">
      <Text size="sm" mb="sm">
        Your channels, videos, schedules and apps as one catalog file. Secrets (passwords, store credentials, app tokens) are never exported.
      </Text>
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      {done ? (
        <Alert color="green" mb="sm">
          {done}
        </Alert>
      ) : null}
      <Button onClick={() => void run.run()} loading={busy}>
        Export catalog
      </Button>
    </Panel>
  );
}

function Import() {
  const [text, setText] = useState('');
  const [checked, setChecked] = useState<{ text: string; counts: Counts } | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [result, setResult] = useState<Counts | null>(null);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const importer = useImport();

  async function readFile(file: File | null) {
    if (!file) return;
    change(await file.text());
  }
  function change(next: string) {
    setText(next);
    setChecked(null);
    setProblems([]);
    setResult(null);
  }

  async function send(dryRun: boolean) {
    setProblems([]);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (failure) {
      return setProblems([`The file is not JSON: ${failure instanceof Error ? failure.message : String(failure)}`]);
    }
    setBusy(dryRun ? 'check' : 'import');
    try {
      const data = await importer.mutateAsync({ document, dryRun, key: dryRun ? undefined : key });
      if (dryRun) setChecked({ text, counts: data.counts });
      else {
        setResult(data.counts);
        setChecked(null);
        setKey(newIdempotencyKey());
      }
    } catch (failure) {
      setChecked(null);
      setProblems(
        failure instanceof ApiError && failure.details.length > 0 ? failure.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)) : [formMessage(failure)],
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <Panel title="Import">
      <Text size="sm" mb="sm">
        A catalog file of your own channels, videos and apps, merged by id. It is checked first; nothing changes until you import it, and then everything in it changes at once or
        nothing does.
      </Text>
      <Stack>
        <FileInput label="Catalog file" placeholder="Choose a .json file" accept="application/json,.json" onChange={(file) => void readFile(file)} maw={420} />
        <Textarea
          label="Or paste the catalog"
          autosize
          minRows={4}
          maxRows={14}
          value={text}
          onChange={(e) => change(e.currentTarget.value)}
          styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
        />
        {problems.length > 0 ? (
          <Alert color="red" title="The file cannot be imported; nothing was changed" role="alert">
            <List size="sm">
              {problems.slice(0, 50).map((p, i) => (
                <List.Item key={i}>{p}</List.Item>
              ))}
            </List>
            {problems.length > 50 ? <Text size="sm">…and {problems.length - 50} more.</Text> : null}
          </Alert>
        ) : null}
        {checked ? (
          <Alert color="blue" title="Checked: the import would write">
            <CountsTable counts={checked.counts} label="What the import would write" />
          </Alert>
        ) : null}
        {result ? (
          <Alert color="green" title="Imported">
            <CountsTable counts={result} label="What was imported" />
          </Alert>
        ) : null}
        <Group>
          <Button variant="light" onClick={() => void send(true)} loading={busy === 'check'} disabled={text.trim() === '' || busy !== null}>
            Check file
          </Button>
          <Button onClick={() => void send(false)} loading={busy === 'import'} disabled={!checked || checked.text !== text || busy !== null}>
            Import
          </Button>
          {busy ? <Loader size="sm" aria-label={busy === 'check' ? 'Checking' : 'Importing'} /> : null}
        </Group>
      </Stack>
    </Panel>
  );
}

function CountsTable({ counts, label }: { counts: Counts; label: string }) {
  const rows = Object.entries(counts).filter(([, n]) => n > 0);
  if (rows.length === 0) return <Text size="sm">Nothing.</Text>;
  return <DataTable label={label} columns={COUNT_COLUMNS} rows={rows} rowKey={([name]) => name} withRowBorders={false} headless />;
}

const COUNT_COLUMNS = [
  { header: 'What', cell: ([name]: [string, number]) => name },
  { header: 'How many', cell: ([, n]: [string, number]) => n },
];
