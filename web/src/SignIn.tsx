// Sign in with an owner's username and password (REST's login); the Studio then answers 403 to
// a viewer, who is told the console is for owners and signed out again. Where the operator allows
// sign-up (SIGNUP=open), it offers "Create an account" (Onboarding.tsx).
import { Anchor, Button, Card, Center, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiError } from './api/client.ts';
import { signupMode } from './api/invites.ts';
import { signIn } from './api/session.ts';
import { fieldError, FormAlert } from './ui/errors.tsx';
import { useSubmit } from './ui/submit.ts';

export function SignIn({ onSignedIn, onCreateAccount }: { onSignedIn: (userName: string) => void; onCreateAccount: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // "Create an account" only where the operator opened sign-up (SIGNUP=open).
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    signupMode().then(
      (mode) => live && setOpen(mode === 'open'),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  const submit = useSubmit(async () => {
    try {
      onSignedIn((await signIn(username, password)).userName);
    } catch (failure) {
      throw failure instanceof ApiError && failure.status === 401 ? new ApiError(401, 'unauthorized', 'Wrong username or password.') : failure;
    }
  });
  const { error } = submit;

  return (
    <Center mih="100vh" p="md">
      <Card withBorder shadow="sm" w={380} maw="100%" padding="lg">
        <form onSubmit={submit.onSubmit()} aria-label="Sign in">
          <Stack>
            <Title order={1} size="h2">
              channelnet Studio
            </Title>
            <Text c="dimmed" size="sm">
              Sign in with your channel owner account.
            </Text>
            <FormAlert error={error} fields={['username', 'password']} />
            <TextInput
              label="Username or email"
              autoComplete="username"
              required
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              error={fieldError(error, 'username')}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldError(error, 'password')}
            />
            <Button type="submit" loading={submit.busy}>
              Sign in
            </Button>
            {open ? (
              <Anchor component="button" type="button" size="sm" onClick={onCreateAccount}>
                Create an account
              </Anchor>
            ) : null}
          </Stack>
        </form>
      </Card>
    </Center>
  );
}
