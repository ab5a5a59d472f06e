// The console's frame: sign-in gate, a skip link, navigation (a burger menu at phone width) and
// the screen the URL hash names, under its own boundary (a screen that fails to load says so and
// offers Reload; the frame stays) and its own document title.
import { AppShell, Burger, Button, Group, Loader, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect, useRef, useState } from 'react';
import { tokenStore, whenSignedOut } from './api/client.ts';
import { forget, signOut as endSession } from './api/session.ts';
import { announceSignOut, shareSession } from './api/shared-session.ts';
import { navigate, useLocation } from './router.ts';
import { SCREENS } from './screens/registry.tsx';
import { inviteTokenOf } from './invite-path.ts';
import { JoinScreen } from './Onboarding.tsx';
import { SignIn } from './SignIn.tsx';
import { ScreenBoundary } from './ui/ScreenBoundary.tsx';
import { confirmLeave } from './ui/unsaved.ts';

const STUDIO = 'channelnet Studio';

/** The tab's title: the screen first, so tabs and history entries say which screen they hold. */
export const titleOf = (screen: string | undefined) => (screen ? `${screen} · ${STUDIO}` : STUDIO);

export const USER_KEY = 'channelnet.studio.user';

export function App() {
  const [user, setUser] = useState<string | null>(() => (tokenStore.get() ? sessionStorage.getItem(USER_KEY) : null));
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  const screen = SCREENS.find((s) => s.id === location.screen) ?? SCREENS[0]!;
  // An invite link (/studio/invite/<token>) opens the invitation, signed in or not; sign-up is
  // offered by the sign-in screen where the operator allows it.
  const [invite, setInvite] = useState(() => inviteTokenOf(window.location.pathname));
  const [joining, setJoining] = useState(false);

  useEffect(() => {
    document.title = titleOf(invite ? 'Invitation' : joining && !user ? 'Create an account' : user ? screen.label : 'Sign in');
  }, [user, screen.label, invite, joining]);

  useEffect(() => whenSignedOut(() => signedOut()), []);
  // New tabs take this tab's sign-in; a sign-out in another tab signs this one out too.
  useEffect(
    () =>
      shareSession(() => {
        const token = tokenStore.get();
        const name = sessionStorage.getItem(USER_KEY);
        return token && name ? { token, user: name } : null;
      }, signedOut),
    [user],
  );

  // A new screen puts the focus on its heading, so a keyboard or screen reader user lands on it
  // (and hears its name) rather than on the link they left; not on the first load (the page's start).
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!user) return;
    const moved = shown.current !== null && shown.current !== screen.id;
    shown.current = screen.id;
    if (moved && main.current) return focusHeading(main.current, screen.label);
    return undefined;
  }, [user, screen.id, screen.label]);

  function signedOut() {
    forget();
    sessionStorage.removeItem(USER_KEY);
    setUser(null);
  }

  async function signOut() {
    if (!confirmLeave()) return;
    await endSession();
    announceSignOut();
    signedOut();
  }

  const signedIn = (name: string) => {
    sessionStorage.setItem(USER_KEY, name);
    setUser(name);
    if (!location.screen) navigate('channels');
  };

  if (invite) {
    const leave = () => {
      // The token leaves the address bar (and the history entry) once the invitation is done with.
      history.replaceState(null, '', '/studio/');
      setInvite(null);
    };
    return (
      <JoinScreen
        invite={invite}
        onSignedIn={(name) => {
          leave();
          signedIn(name);
        }}
        onBack={leave}
      />
    );
  }

  if (!user) {
    if (joining) {
      return (
        <JoinScreen
          invite={null}
          onSignedIn={(name) => {
            setJoining(false);
            signedIn(name);
          }}
          onBack={() => setJoining(false)}
        />
      );
    }
    return <SignIn onSignedIn={signedIn} onCreateAccount={() => setJoining(true)} />;
  }

  const Screen = screen.component;
  return (
    <>
      <a
        className="skip-link"
        href={`#/${screen.id}`}
        onClick={(event) => {
          // The hash names the screen, so the link moves the focus instead of the address.
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
              <Title order={1} size="h4">
                channelnet Studio
              </Title>
            </Group>
            <Group wrap="nowrap" gap="sm">
              <Text size="sm" visibleFrom="xs">
                {user}
              </Text>
              <Button variant="default" size="xs" onClick={() => void signOut()}>
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label="Screens">
          <ScrollArea>
            {SCREENS.map((s) => (
              <NavLink key={s.id} href={`#/${s.id}`} label={s.label} active={s.id === screen.id} aria-current={s.id === screen.id ? 'page' : undefined} onClick={close} />
            ))}
          </ScrollArea>
        </AppShell.Navbar>
        {/* overflow-x clip: wide parts scroll inside themselves (tables, charts), and a few pixels of
            layout overflow (Mantine's table scroll containers at 375 px) must not make the whole
            page scroll sideways; test/console-a11y.test.ts checks no content lies beyond the edge. */}
        <AppShell.Main ref={main} tabIndex={-1} id="content" aria-label={screen.label} style={{ outline: 'none', overflowX: 'clip' }}>
          <ScreenBoundary key={screen.id} label={screen.label}>
            <Suspense fallback={<Loader aria-label={`Loading ${screen.label}`} />}>
              <Screen key={screen.id} rest={location.rest} />
            </Suspense>
          </ScreenBoundary>
        </AppShell.Main>
      </AppShell>
    </>
  );
}

/**
 * Focuses the screen's heading (its h2 named by the screen, else its first) once it is there:
 * screens load lazily, so it may appear after this is called. Returns the function that stops waiting.
 */
function focusHeading(main: HTMLElement, label: string): () => void {
  const find = () => {
    const headings = [...main.querySelectorAll('h2')];
    return headings.find((h) => h.textContent?.trim() === label) ?? headings[0];
  };
  const focus = (heading: HTMLElement) => {
    heading.tabIndex = -1;
    heading.focus();
  };
  const now = find();
  if (now) {
    focus(now);
    return () => undefined;
  }
  const watcher = new MutationObserver(() => {
    const heading = find();
    if (!heading) return;
    watcher.disconnect();
    // Someone already working in the new screen keeps their place.
    if (main.contains(document.activeElement) && document.activeElement !== main) return;
    focus(heading);
  });
  watcher.observe(main, { childList: true, subtree: true });
  return () => watcher.disconnect();
}
