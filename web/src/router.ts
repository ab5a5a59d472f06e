// The console's screens live in the URL hash (#/channels, #/schedule/3), so a reload or a shared
// link opens the same screen and the server needs no route per screen. A change of screen while
// one has unsaved changes asks first (ui/unsaved.ts); refused, the address goes back.
import { useSyncExternalStore } from 'react';
import { confirmLeave } from './ui/unsaved.ts';

export interface Location {
  screen: string;
  /** The path segments after the screen: #/schedule/3 -> ['3']. */
  rest: string[];
}

export function parseHash(hash: string): Location {
  const [screen = '', ...rest] = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  return { screen, rest };
}

// The hash the screens show. A navigation refused by confirmLeave puts the address back without
// the screens ever seeing the other hash (links, navigate() and the Back button alike).
let shown = typeof window === 'undefined' ? '' : window.location.hash;
const listeners = new Set<() => void>();
if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', () => {
    const next = window.location.hash;
    if (next === shown) return;
    if (!confirmLeave()) {
      history.replaceState(history.state, '', shown || window.location.pathname);
      return;
    }
    shown = next;
    for (const listener of listeners) listener();
  });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useLocation(): Location {
  const hash = useSyncExternalStore(subscribe, () => shown);
  return parseHash(hash);
}

export const navigate = (screen: string, ...rest: Array<string | number>) => {
  window.location.hash = `#/${[screen, ...rest.map((part) => encodeURIComponent(String(part)))].join('/')}`;
};
