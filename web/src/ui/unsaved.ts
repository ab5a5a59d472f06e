// Unsaved changes: a screen with edits not yet sent (a library order before "Save order", an app
// before "Save app") registers them here; closing or reloading the tab then asks the browser's
// own "Leave site?" (beforeunload), and moving elsewhere in the console asks first (the router
// and tab lists call confirmLeave). Screens that save as you go register nothing.
import { useEffect } from 'react';

const pending = new Set<symbol>();

const onBeforeUnload = (event: BeforeUnloadEvent) => {
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = '';
};

/** While `dirty`, leaving the screen or the page asks first. */
export function useUnsavedChanges(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const key = Symbol('unsaved');
    pending.add(key);
    if (pending.size === 1) window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      pending.delete(key);
      if (pending.size === 0) window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);
}

export const hasUnsavedChanges = () => pending.size > 0;

/** True when nothing is unsaved or the person agrees to drop it. */
export function confirmLeave(): boolean {
  if (pending.size === 0) return true;
  return window.confirm('You have unsaved changes on this screen. Leave without saving them?');
}
