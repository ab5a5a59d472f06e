// A screen that fails stays a failed screen, not a blank page: its file not loading (offline,
// or a deploy replaced the chunk names the page knows) or an error while drawing it. The frame
// and navigation stay; the screen says what happened and offers Reload (a fresh page fetches
// the current files). Keyed by screen, so opening another screen starts clean.
import { Alert, Button, Group, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';

/** A lazily loaded file that did not arrive (Chromium, Firefox and Safari word it differently). */
export const isLoadFailure = (error: unknown) =>
  error instanceof Error &&
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch|ChunkLoadError|Unable to preload/i.test(
    `${error.name} ${error.message}`,
  );

export class ScreenBoundary extends Component<{ label: string; children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    const loading = isLoadFailure(error);
    return (
      <Alert color="red" role="alert" title={loading ? `The ${this.props.label} screen could not be loaded` : `The ${this.props.label} screen stopped working`}>
        <Text size="sm" mb="sm">
          {loading
            ? 'The connection may be down, or a new version of the Studio was installed since this page opened. Reload to fetch it again; nothing you saved is lost.'
            : 'Something went wrong while showing this screen. Reload the page; what you saved is kept.'}
        </Text>
        <Group>
          <Button onClick={() => window.location.reload()}>Reload</Button>
        </Group>
      </Alert>
    );
  }
}
