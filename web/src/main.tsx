import '@mantine/core/styles.css';
import './app.css';
import { createTheme, MantineProvider, Modal, Pagination } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, USER_KEY } from './App.tsx';
import { tokenStore } from './api/client.ts';
import { askOpenTabs } from './api/shared-session.ts';
import { queryClient } from './api/query.ts';

const PAGE_CONTROLS: Record<string, string> = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' };

/**
 * Accessible names set once for every screen: a pagination's arrows and pages ("Next page",
 * "Page 3"); a dialog's × ("Close dialog"), kept out of the tab order so that opening a dialog
 * puts the focus on its first field (Mantine focuses the first tabbable element), while Escape
 * and each dialog's Cancel or Done close it from the keyboard.
 */
const theme = createTheme({
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog', tabIndex: -1 } } }),
    Pagination: Pagination.extend({
      defaultProps: {
        getControlProps: (control: string) => ({ 'aria-label': PAGE_CONTROLS[control] ?? control }),
        getItemProps: (page: number) => ({ 'aria-label': `Page ${page}` }),
      },
    }),
  },
});

// A new tab takes the sign-in of a tab already open (shared-session.ts) before its first render.
async function adoptOpenSession(): Promise<void> {
  if (tokenStore.get()) return;
  const shared = await askOpenTabs();
  if (!shared) return;
  tokenStore.set(shared.token);
  sessionStorage.setItem(USER_KEY, shared.user);
}

void adoptOpenSession().finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <MantineProvider defaultColorScheme="light" theme={theme}>
          <App />
        </MantineProvider>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
