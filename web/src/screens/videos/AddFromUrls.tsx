// Add from URLs: paste YouTube, Vimeo or direct media URLs, or a YouTube playlist, channel or
// Vimeo showcase, see what each video is and what its provider said (title, duration, thumbnail),
// fill in what is missing, add them all at once; videos already in the library are left out
// unless added anyway. The server parses the URLs and asks the providers; this screen never
// fetches a pasted URL itself.
import { Alert, Button, Checkbox, Group, Image, List, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ApiError, newIdempotencyKey } from '../../api/client.ts';
import { lookUpUrls, useCreateVideos } from '../../api/videos.ts';
import { formMessage } from '../../ui/errors.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { bodiesOf, listNotes, rowErrorsFromDetails, rowOf, urlsOf, type RowErrors, type UrlRow } from './from-urls.ts';

export function AddFromUrls({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [text, setText] = useState('');
  const [rows, setRows] = useState<UrlRow[] | null>(null);
  const [notes, setNotes] = useState<{ text: string; problem: boolean }[]>([]);
  const [errors, setErrors] = useState<Map<number, RowErrors>>(new Map());
  const [other, setOther] = useState<string[]>([]);
  const [key] = useState(newIdempotencyKey);
  const create = useCreateVideos();
  // Look up and Back each replace the view, the button pressed with it, which would drop the focus
  // to the page: it goes to the review's table, or back to the URLs (not on opening: the dialog
  // puts it on the URLs itself).
  const reviewing = rows !== null;
  const table = useRef<HTMLTableElement>(null);
  const urlsField = useRef<HTMLTextAreaElement>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) (reviewing ? table.current : urlsField.current)?.focus();
    opened.current = true;
  }, [reviewing]);

  const lookup = useSubmit(async () => {
    const urls = urlsOf(text);
    if (urls.length === 0) throw new Error('paste at least one URL, one per line');
    const found = await lookUpUrls(urls);
    setRows(found.items.map((item) => rowOf(item, found.lists)));
    setNotes(listNotes(found.lists));
    setErrors(new Map());
  });
  const add = useSubmit(async () => {
    if (!rows) return;
    const { bodies, rowOf, errors: before } = bodiesOf(rows);
    setErrors(before);
    setOther([]);
    if (before.size > 0) return;
    if (bodies.length === 0) return onDone();
    try {
      await create.mutateAsync({ body: bodies, key });
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.details.length > 0)) throw failure;
      const found = rowErrorsFromDetails(failure.details);
      // The API names bodies; rows left out have none.
      setErrors(new Map([...found.rows].map(([body, errors]) => [rowOf[body] ?? body, errors])));
      return setOther(found.other);
    }
    onDone();
  });
  const edit = (index: number, patch: Partial<UrlRow>) => setRows((current) => current?.map((row, i) => (i === index ? { ...row, ...patch } : row)) ?? null);

  if (!rows) {
    return (
      <Stack gap="sm">
        <Text size="sm">
          One URL per line: YouTube (watch, youtu.be, shorts, embed, live), Vimeo (vimeo.com/123, player.vimeo.com/video/123) or a direct media file (.mp4, .m3u8, .mpd, .webm,
          .mov, .m4v); or a whole YouTube playlist (playlist?list=), a channel's uploads (/@handle, /channel/UC…) or a Vimeo showcase (vimeo.com/showcase/123), up to 500 videos at
          once. Titles, durations and thumbnails are fetched from YouTube and Vimeo where they answer; you fill in the rest. Durations are h:mm:ss, m:ss or seconds.
        </Text>
        {lookup.error ? (
          <Alert color="red" role="alert">
            {formMessage(lookup.error)}
          </Alert>
        ) : null}
        <Textarea
          ref={urlsField}
          label="Video URLs, one per line"
          autosize
          minRows={5}
          maxRows={15}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => void lookup.run()} loading={lookup.busy}>
            Look up
          </Button>
        </Group>
      </Stack>
    );
  }

  const blocked = errors.size > 0 || other.length > 0;
  const adding = rows.filter((row) => !row.leftOut || row.addAnyway).length;
  return (
    <Stack gap="sm">
      {add.error ? (
        <Alert color="red" role="alert">
          {formMessage(add.error)}
        </Alert>
      ) : null}
      {blocked ? (
        <Alert color="red" role="alert" title="Nothing was added">
          {other.length > 0 ? other.join('; ') : 'Correct the rows marked below (or go back and leave their URLs out).'}
        </Alert>
      ) : null}
      {notes.length > 0 ? (
        <Alert color={notes.some((n) => n.problem) ? 'orange' : 'blue'} title="Lists" role="status">
          <List size="sm">
            {notes.map((note) => (
              <List.Item key={note.text}>{note.text}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <Table.ScrollContainer minWidth={640}>
        <Table ref={table} tabIndex={-1} aria-label="Videos to add" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Thumbnail</Table.Th>
              <Table.Th>Video</Table.Th>
              <Table.Th>Title</Table.Th>
              <Table.Th>Duration</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, i) => {
              const rowErrors = errors.get(i) ?? {};
              const line = `line ${i + 1}`;
              const off = row.problem !== null || (row.leftOut !== null && !row.addAnyway);
              return (
                <Table.Tr key={i}>
                  <Table.Td>{row.thumbnailUrl ? <Image src={row.thumbnailUrl} alt="" w={96} h={54} fit="cover" radius="sm" /> : null}</Table.Td>
                  <Table.Td>
                    {row.problem || rowErrors['url'] ? (
                      <Text size="sm" c="red">
                        {row.url}: {rowErrors['url'] ?? row.problem}
                      </Text>
                    ) : (
                      <>
                        <Text size="sm">
                          {row.providerName} {row.providerVideoId}
                        </Text>
                        {row.from ? (
                          <Text size="xs" c="dimmed">
                            from {row.from}
                          </Text>
                        ) : null}
                        {row.leftOut ? (
                          <>
                            <Text size="xs" c="orange.8">
                              {row.leftOut}
                            </Text>
                            <Checkbox
                              size="xs"
                              mt={4}
                              label="Add anyway"
                              aria-label={`Add anyway, ${line}`}
                              checked={row.addAnyway}
                              onChange={(e) => edit(i, { addAnyway: e.currentTarget.checked })}
                            />
                          </>
                        ) : null}
                        {row.note && (!row.leftOut || row.addAnyway) ? (
                          <Text size="xs" c="dimmed">
                            {row.note}
                          </Text>
                        ) : null}
                        {rowErrors['providerVideoId'] ? (
                          <Text size="xs" c="red">
                            {rowErrors['providerVideoId']}
                          </Text>
                        ) : null}
                      </>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Title, ${line}`}
                      value={row.title}
                      onChange={(e) => edit(i, { title: e.currentTarget.value })}
                      error={rowErrors['title']}
                      disabled={off}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Duration, ${line}`}
                      placeholder="h:mm:ss"
                      w={110}
                      value={row.duration}
                      onChange={(e) => edit(i, { duration: e.currentTarget.value })}
                      error={rowErrors['durationSeconds']}
                      disabled={off}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => {
            setRows(null);
            setNotes([]);
          }}
        >
          Back
        </Button>
        <Button onClick={() => void add.run()} loading={add.busy}>
          {adding === 1 ? 'Add 1 video' : `Add ${adding} videos`}
        </Button>
      </Group>
    </Stack>
  );
}
