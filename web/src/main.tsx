import '@mantine/core/styles.css';
import './app.css';
import { createTheme, MantineProvider, Modal } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { queryClient } from './api/query.ts';

/**
 * Every dialog: its × has a name, and it is left out of the tab order so that opening a dialog
 * puts the focus on its first field (Mantine focuses the first tabbable element); Escape and
 * each dialog's Cancel or Done close it from the keyboard.
 */
const theme = createTheme({
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog', tabIndex: -1 } } }),
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <MantineProvider defaultColorScheme="light" theme={theme}>
        <App />
      </MantineProvider>
    </QueryClientProvider>
  </StrictMode>,
);
