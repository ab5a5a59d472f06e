// What `npm start` prints for the person who ran it (src/server.ts writes it).
import { DEMO_LOGINS } from './demo/catalog.ts';

/** A bind only this machine can reach: the demo's passwords may be printed for it. */
export function isLocalBind(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * What `npm start` prints: where it listens and, when it loaded the demo, its logins. The demo's
 * passwords are public (README), so they are printed only for a local bind: on an address others
 * can reach they would be an open door, and the operator is told to change them instead.
 */
export function announcement(url: string, host: string, databaseKind: string, demoLoaded: boolean): string[] {
  const lines = [`channelnet is listening on ${url} (database: ${databaseKind})`];
  if (!demoLoaded) return lines;
  if (!isLocalBind(host)) {
    lines.push(
      `Loaded the demo catalog. Its accounts have the public demo passwords and ${host} is reachable from other machines: change them (Studio, Account) or start on a fresh database.`,
    );
    return lines;
  }
  lines.push('Loaded the demo catalog. Demo logins (username / email / password):');
  for (const login of DEMO_LOGINS) lines.push(`  ${login.role.padEnd(6)} ${login.username} / ${login.email} / ${login.password}`);
  return lines;
}
