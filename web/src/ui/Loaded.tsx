// One way every screen shows a read: a labelled loader until the answer comes, the failure in
// words when it fails, then the content. `fresh` is for forms that send the read's ETag back
// with their save: it waits for a read made since the form appeared (not a cached one), and once
// shown the form stays while the read is refreshed underneath (what was typed is kept).
import { Alert, Loader, type LoaderProps } from '@mantine/core';
import { useRef, type ReactNode } from 'react';
import { formMessage } from './errors.tsx';

interface Read<T> {
  data: T | undefined;
  error: unknown;
  isFetchedAfterMount?: boolean;
}

export function Loaded<T>({
  query,
  label,
  fresh,
  size,
  children,
}: {
  query: Read<T>;
  label: string;
  fresh?: boolean;
  size?: LoaderProps['size'];
  children: (data: T) => ReactNode;
}) {
  const shown = useRef<{ data: T } | null>(null);
  if (query.data !== undefined && (!fresh || query.isFetchedAfterMount)) shown.current = { data: query.data };
  if (query.data !== undefined && !fresh) return <>{children(query.data)}</>;
  if (fresh && shown.current) return <>{children(shown.current.data)}</>;
  if (query.error) return <Alert color="red">{formMessage(query.error)}</Alert>;
  return <Loader size={size} aria-label={label} />;
}

/** Several reads as one for <Loaded>: the values once all have come, the first failure, fresh when the first is. */
export function allOf<R extends Record<string, { data: unknown; error: unknown; isFetchedAfterMount?: boolean }>>(reads: R) {
  const parts = Object.values(reads);
  const done = parts.every((r) => r.data !== undefined);
  return {
    data: done ? (Object.fromEntries(Object.entries(reads).map(([k, r]) => [k, r.data])) as { [K in keyof R]: NonNullable<R[K]['data']> }) : undefined,
    error: parts.find((r) => r.error)?.error ?? null,
    isFetchedAfterMount: parts[0]?.isFetchedAfterMount ?? false,
  };
}
