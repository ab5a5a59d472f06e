// Signing in and out: REST's login, then a Studio read that only an owner may make (a viewer's
// token is refused with 403 and signed out again); sign-out clears the cache of the account's data.
import { rest, studio, tokenStore } from './client.ts';
import { queryClient } from './query.ts';
import type { Login } from './types.ts';

export async function signIn(username: string, password: string): Promise<Login> {
  const { data } = await rest<Login>('/auth/login', { method: 'POST', body: { username, password } });
  tokenStore.set(data.authToken);
  try {
    await studio('/branding');
  } catch (refusal) {
    await signOut();
    throw refusal;
  }
  return data;
}

export async function signOut(): Promise<void> {
  await rest('/auth/logout', { method: 'POST' }).catch(() => undefined);
  forget();
}

/** The token and every cached answer go (another account may sign in next). */
export function forget(): void {
  tokenStore.clear();
  queryClient.clear();
}
