// Becoming an owner from the console (docs/studio.md, Onboarding): with an invite link
// (/studio/invite/<token>) or, where the operator allows it, by signing up from the sign-in
// screen. Username, email and password follow `channelnet owner create`'s rules; each refusal is
// shown beside its field, an unusable link in words at the top. Once made, the account signs in.
import { Anchor, Button, Card, Center, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { redeemInvite, signUp } from './api/invites.ts';
import { signIn } from './api/session.ts';
import { fieldError, FormAlert } from './ui/errors.tsx';
import { useSubmit } from './ui/submit.ts';

const FIELDS = ['username', 'email', 'password'] as const;

export function JoinScreen({ invite, onSignedIn, onBack }: { invite: string | null; onSignedIn: (userName: string) => void; onBack: () => void }) {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const title = invite ? 'Accept your invitation' : 'Create an account';
  // A new screen: the focus goes to its heading (for screen readers and the keyboard).
  useEffect(() => heading.current?.focus(), [invite]);
  const submit = useSubmit(async () => {
    const owner = { username, email, password };
    if (invite) await redeemInvite(invite, owner);
    else await signUp(owner);
    onSignedIn((await signIn(username, password)).userName);
  });
  const { error } = submit;

  return (
    <Center mih="100vh" p="md">
      <Card withBorder shadow="sm" w={420} maw="100%" padding="lg">
        <form onSubmit={submit.onSubmit()} aria-label={title}>
          <Stack>
            <Title order={1} size="h2" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
              {title}
            </Title>
            <Text c="dimmed" size="sm">
              {invite
                ? 'You were invited to run channels on this channelnet. Choose your sign-in: this makes an owner account of your own, with nothing of anyone else\u2019s.'
                : 'Make an owner account of your own to run channels on this channelnet.'}
            </Text>
            <FormAlert error={error} fields={FIELDS} />
            <TextInput
              label="Username"
              autoComplete="username"
              required
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              error={fieldError(error, 'username')}
            />
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fieldError(error, 'email')}
            />
            <PasswordInput
              label="Password"
              description="At least 8 characters."
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldError(error, 'password')}
            />
            <Button type="submit" loading={submit.busy}>
              {invite ? 'Create my account' : 'Create account'}
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={onBack}>
              I already have an account: sign in
            </Anchor>
          </Stack>
        </form>
      </Card>
    </Center>
  );
}
