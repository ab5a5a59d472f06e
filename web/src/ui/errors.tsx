// How API failures appear: each detail beside the field its path names, the rest at the top of
// the form, always in words (never a stack trace or raw JSON), refusals in a creator's words
// (refusal-words.ts).
import { Alert } from '@mantine/core';
import { ApiError } from '../api/client.ts';
import { creatorWords } from './refusal-words.ts';

/** The message for the top of a form (empty when every problem sits beside a field). */
export function formMessage(error: unknown, fields: readonly string[] = []): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? 'Something went wrong: ' + error.message : 'Something went wrong.';
  const unplaced = error.details.filter((d) => !fields.some((field) => belongsTo(d.path, field)));
  if (error.details.length > 0 && unplaced.length === 0) return 'Please correct the fields marked below.';
  if (unplaced.length > 0) return unplaced.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
  return creatorWords(error.code, error.message) ?? error.message;
}

const belongsTo = (path: string, field: string) => path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);

/** The message beside `field` (a top-level body field), if the API named it. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const found = error.details.filter((d) => belongsTo(d.path, field));
  return found.length === 0 ? undefined : found.map((d) => (d.path === field ? d.message : `${d.path}: ${d.message}`)).join('; ');
}

/**
 * The details under `field` that no input of a list shows beside itself: a list's rows show
 * theirs (`channels[1].channelNumber` beside row 1's number), the list's heading the rest.
 */
export function listError(error: unknown, field: string, placed: RegExp): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const rest = error.details.filter((d) => belongsTo(d.path, field) && !placed.test(d.path));
  return rest.length === 0 ? undefined : rest.map((d) => (d.path === field ? d.message : `${d.path}: ${d.message}`)).join('; ');
}

export function FormAlert({ error, fields }: { error: unknown; fields?: readonly string[] }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" title="Not saved" mb="sm">
      {formMessage(error, fields)}
    </Alert>
  );
}
