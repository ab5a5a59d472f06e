// Guide keys this browser tab holds. A key is shown once, when made (the service keeps only its
// digest), so the console remembers the keys it made or was given, for this tab's session only
// (sessionStorage, as the sign-in token): the Linear output panel shows player URLs with them and
// the Watch view plays the channel's own stream through them. Closing the tab forgets them.
import { useSyncExternalStore } from 'react';

const STORE_KEY = 'channelnet.studio.guide-keys';

/** Where a key came from: an app's platform (made on the Apps screen) or 'pasted'. */
export type KeySource = string;

const listeners = new Set<() => void>();
let cache: string | null = null;

function read(): Record<KeySource, string> {
  try {
    return JSON.parse(sessionStorage.getItem(STORE_KEY) ?? '{}') as Record<KeySource, string>;
  } catch {
    return {};
  }
}

function write(next: Record<KeySource, string>): void {
  sessionStorage.setItem(STORE_KEY, JSON.stringify(next));
  cache = null;
  for (const listener of listeners) listener();
}

export const guideKeys = {
  remember: (source: KeySource, key: string) => write({ ...read(), [source]: key }),
  forget: (source: KeySource) => {
    const { [source]: _gone, ...rest } = read();
    write(rest);
  },
};

const snapshot = () => (cache ??= sessionStorage.getItem(STORE_KEY) ?? '{}');
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The keys held, by source (re-rendered when one is remembered or forgotten). */
export function useGuideKeys(): Record<KeySource, string> {
  const text = useSyncExternalStore(subscribe, snapshot);
  try {
    return JSON.parse(text) as Record<KeySource, string>;
  } catch {
    return {};
  }
}
