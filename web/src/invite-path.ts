// The console's invitation address, /studio/invite/<token> (docs/studio.md, Onboarding): the one
// console route outside the hash, since the link is what an owner hands out.

/** The invite token a console address carries, or null when it is not an invitation. */
export function inviteTokenOf(pathname: string): string | null {
  const match = /^\/studio\/invite\/([A-Za-z0-9_-]{1,200})\/?$/.exec(pathname);
  return match ? match[1]! : null;
}
