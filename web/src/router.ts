// The console's screens live in the URL hash (#/channels, #/schedule/3), so a reload or a shared
// link opens the same screen and the server needs no route per screen.
import { useSyncExternalStore } from 'react';

export interface Location {
  screen: string;
  /** The path segments after the screen: #/schedule/3 -> ['3']. */
  rest: string[];
}

export function parseHash(hash: string): Location {
  const [screen = '', ...rest] = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  return { screen, rest };
}

const subscribe = (listener: () => void) => {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
};

export function useLocation(): Location {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseHash(hash);
}

export const navigate = (screen: string, ...rest: Array<string | number>) => {
  window.location.hash = `#/${[screen, ...rest.map((part) => encodeURIComponent(String(part)))].join('/')}`;
};
