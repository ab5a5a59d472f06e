// The foot of a form: Cancel (when the form can be left) and its submit button, busy while it runs.
import { Button, Group } from '@mantine/core';

export function FormActions({ submitLabel, busy, onCancel }: { submitLabel: string; busy: boolean; onCancel?: (() => void) | undefined }) {
  return (
    <Group justify="flex-end">
      {onCancel ? (
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      ) : null}
      <Button type="submit" loading={busy}>
        {submitLabel}
      </Button>
    </Group>
  );
}
