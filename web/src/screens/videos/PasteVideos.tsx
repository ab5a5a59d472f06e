// Paste a list: one video per line (paste.ts has the format); problems are shown per line, both
// the format's and the API's (which names items by index), and nothing is created unless all pass.
import { Alert, Button, Code, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { ApiError, newIdempotencyKey } from '../../api/client.ts';
import { useCreateVideos } from '../../api/videos.ts';
import { formMessage } from '../../ui/errors.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { parsePastedVideos, problemsFromDetails, type PasteProblem } from './paste.ts';

export function PasteVideos({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<PasteProblem[]>([]);
  const [key] = useState(newIdempotencyKey);
  const create = useCreateVideos();
  // Refusals naming items by index go beside their lines; any other is said above.
  const submit = useSubmit(async () => {
    const parsed = parsePastedVideos(text);
    setProblems(parsed.problems);
    if (parsed.problems.length > 0) return;
    if (parsed.videos.length === 0) return setProblems([{ line: 0, message: 'nothing to add: paste one video per line' }]);
    try {
      await create.mutateAsync({ body: parsed.videos.map((v) => v.video), key });
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.details.length > 0)) throw failure;
      return setProblems(problemsFromDetails(failure.details, parsed.videos));
    }
    onDone();
  });
  const { error } = submit;

  return (
    <Stack gap="sm">
      <Text size="sm">
        One video per line: <Code>title | duration | provider | provider video id | description (optional)</Code>. Duration as h:mm:ss, m:ss or seconds (10:00 is ten minutes). Up
        to 1,000 at once; nothing is added unless every line is right.
      </Text>
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      <Textarea
        label="Videos, one per line"
        autosize
        minRows={8}
        maxRows={20}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
      {problems.length > 0 ? (
        <Alert color="red" title="Nothing was added" role="alert">
          <List size="sm">
            {problems.map((p, i) => (
              <List.Item key={i}>{p.line > 0 ? `Line ${p.line}: ${p.message}` : p.message}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={() => void submit.run()} loading={submit.busy}>
          Add videos
        </Button>
      </Group>
    </Stack>
  );
}
