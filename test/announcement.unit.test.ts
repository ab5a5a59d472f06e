import { describe, expect, it } from 'vitest';
import { announcement, isLocalBind } from '../src/announcement.ts';

describe('what npm start prints', () => {
  it('prints the demo passwords for a local bind only', () => {
    const local = announcement('http://127.0.0.1:8080', '127.0.0.1', 'pglite', true).join('\n');
    expect(local).toContain('demo / demo@channelnet.example / demo1234');
    for (const host of ['0.0.0.0', '::', '192.168.1.4', 'tv.example.com']) {
      const open = announcement(`http://${host}:8080`, host, 'pglite', true).join('\n');
      expect(open, host).not.toContain('demo1234');
      expect(open, host).toContain('change them');
    }
  });

  it('knows which binds are local', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].every(isLocalBind)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.1', '1127.0.0.1', '127.0.0.1.example.com'].some(isLocalBind)).toBe(false);
  });

  it('says only where it listens when no demo was loaded', () => {
    expect(announcement('http://localhost:8080', '0.0.0.0', 'postgres', false)).toEqual(['channelnet is listening on http://localhost:8080 (database: postgres)']);
  });
});
