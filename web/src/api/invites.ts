// Onboarding (docs/studio.md, Onboarding): the owner's invite links (create: the token shown once;
// list; revoke), and, without a sign-in, what the operator allows, redeeming an invite and signing up.
import { useQuery } from '@tanstack/react-query';
import { newIdempotencyKey, studio } from './client.ts';
import { keys, useWrite } from './query.ts';
import type { CreatedInvite, Invite, NewInvite, NewOwner, SignupMode } from './types.ts';

export const useInvites = () => useQuery({ queryKey: keys.invites, queryFn: async () => (await studio<{ items: Invite[] }>('/invites')).data.items });

export const useCreateInvite = () =>
  useWrite(
    async (body: NewInvite) => (await studio<CreatedInvite>('/invites', { method: 'POST', body, idempotencyKey: newIdempotencyKey() })).data,
    () => [keys.invites],
  );

export const useRevokeInvite = () =>
  useWrite(
    (inviteId: number) => studio(`/invites/${inviteId}`, { method: 'DELETE' }),
    () => [keys.invites],
  );

/** Whether the sign-in screen offers "Create an account" (SIGNUP=open); asked without a sign-in. */
export async function signupMode(): Promise<SignupMode> {
  return (await studio<{ signup: SignupMode }>('/onboarding')).data.signup;
}

export async function redeemInvite(token: string, owner: NewOwner): Promise<void> {
  await studio('/onboarding/invite', { method: 'POST', body: { token, ...owner } });
}

export async function signUp(owner: NewOwner): Promise<void> {
  await studio('/onboarding/signup', { method: 'POST', body: owner });
}
