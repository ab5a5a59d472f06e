// A sign-in shared by the console's tabs (issue 36, item 8). The token stays in each tab's
// sessionStorage, never localStorage (which outlives the browser session and is readable by every
// later page of the origin): a new tab asks the tabs already open for it over a BroadcastChannel
// (same origin only), and a sign-out in one tab signs every tab out. A tab opened when no other
// is signed in asks for the sign-in, as before. docs/studio.md, "Signing in".
const CHANNEL = 'channelnet.studio.session';
/**
 * How long a new tab waits for an open one to answer (a busy machine answered in more than 250 ms).
 * It waits only when a tab said it is signed in (HINT_KEY), so a first tab opens at once.
 */
const ASK_MS = 2_000;
/** In localStorage: that some tab of this browser was signed in (no secret: the token is never written there). */
const HINT_KEY = 'channelnet.studio.signed-in-tab';

export interface SharedSession {
  token: string;
  user: string;
}

type Message = { type: 'ask' } | ({ type: 'share' } & SharedSession) | { type: 'signed-out' };

const open = (): BroadcastChannel | null => (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL));

/** The session of a tab already signed in, or null when none answers in time. */
export function askOpenTabs(wait = ASK_MS): Promise<SharedSession | null> {
  const channel = open();
  if (!channel || localStorage.getItem(HINT_KEY) === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (session: SharedSession | null) => {
      clearTimeout(timer);
      channel.close();
      // No tab answered: the hint was left by a tab closed while signed in.
      if (!session) localStorage.removeItem(HINT_KEY);
      resolve(session);
    };
    const timer = setTimeout(() => done(null), wait);
    channel.onmessage = (event: MessageEvent<Message>) => {
      if (event.data.type === 'share') done({ token: event.data.token, user: event.data.user });
    };
    channel.postMessage({ type: 'ask' } satisfies Message);
  });
}

/**
 * While this tab is open: answers new tabs with its session (when it has one), and calls
 * `signedOut` when another tab signs out. Returns the function that stops it.
 */
export function shareSession(current: () => SharedSession | null, signedOut: () => void): () => void {
  const channel = open();
  if (!channel) return () => undefined;
  if (current()) localStorage.setItem(HINT_KEY, '1');
  channel.onmessage = (event: MessageEvent<Message>) => {
    if (event.data.type === 'ask') {
      const session = current();
      if (session) channel.postMessage({ type: 'share', ...session } satisfies Message);
    } else if (event.data.type === 'signed-out') signedOut();
  };
  return () => channel.close();
}

/** Tells the other tabs this session ended (they return to the sign-in). */
export function announceSignOut(): void {
  localStorage.removeItem(HINT_KEY);
  const channel = open();
  if (!channel) return;
  channel.postMessage({ type: 'signed-out' } satisfies Message);
  channel.close();
}
