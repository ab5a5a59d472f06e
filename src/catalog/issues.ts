// Turns zod issues into `<json path>: <message>` lines.
import type { z } from 'zod';

type PathKey = PropertyKey;

const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*$/;

export function formatPath(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER_RE.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out === '' ? '(root)' : out;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `number ${value}`;
  return typeof value;
}

const EXPECTED_NAMES: Record<string, string> = { int: 'integer', nan: 'NaN' };

function valueList(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function sizeMessage(iss: { origin: string; inclusive?: boolean }, bound: unknown, word: string): string {
  if (iss.origin === 'array' || iss.origin === 'string') {
    const unit = iss.origin === 'string' ? 'characters' : 'items';
    return bound === 1 && word === 'at least' ? 'must not be empty' : `must have ${word} ${String(bound)} ${unit}`;
  }
  const op = word === 'at least' ? (iss.inclusive ? '>=' : '>') : iss.inclusive ? '<=' : '<';
  return `must be ${op} ${String(bound)}`;
}

/** Per-parse zod error map: plain messages; schemas with their own messages override it. */
export function issueMessage(iss: z.core.$ZodRawIssue): string | undefined {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'required';
      return `expected ${EXPECTED_NAMES[iss.expected] ?? iss.expected}, got ${typeName(iss.input)}`;
    case 'invalid_value': {
      const got = JSON.stringify(iss.input) ?? typeName(iss.input);
      if (iss.values.length === 1) return `expected ${valueList(iss.values)}, got ${got}`;
      return `expected one of ${valueList(iss.values)}, got ${got}`;
    }
    case 'too_small':
      return sizeMessage(iss, iss.minimum, 'at least');
    case 'too_big':
      return sizeMessage(iss, iss.maximum, 'at most');
    default:
      return undefined;
  }
}

/** One line per problem; an object with several unknown keys yields one line per key. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `${formatPath([...issue.path, key])}: unknown field`);
    }
    return [`${formatPath(issue.path)}: ${issue.message}`];
  });
}

/** How many lines formatIssues makes of `issues`, without wording them (a refusal words only the first few). */
export function issueLineCount(issues: readonly z.core.$ZodIssue[]): number {
  let lines = 0;
  for (const issue of issues) lines += issue.code === 'unrecognized_keys' ? issue.keys.length : 1;
  return lines;
}
