// Issue 12's smaller findings, each as the attacker's request or action and what it must get.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeConfig, loadConfig, maskUrlSecrets } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BASE, customClient, customTestApp } from './support/custom.ts';
import { BACKENDS } from './support/db.ts';
import { BIN, childEnv } from './support/processes.ts';

describe.each(BACKENDS)('Custom API page links on %s', (backend) => {
  const video = '/users/11/channels/video?channels_ids=201,202&dates=2026-11-21&per_page=3&page=2';
  const pageOf = async (t: TestApp, headers: Record<string, string>) => {
    const response = await customClient(() => t).get(video, headers);
    expect(response.statusCode).toBe(200);
    const { links, meta } = response.json();
    return { links, path: meta.path };
  };

  describe('without PUBLIC_URL', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await customTestApp(backend);
    });
    afterAll(() => t.close());

    it('does not reflect a forged Host header: links are relative', async () => {
      const { links, path } = await pageOf(t, { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
      expect(JSON.stringify({ links, path })).not.toContain('evil');
      expect(path).toBe(`${BASE}/users/11/channels/video`);
      expect(links.next).toBe(`${BASE}/users/11/channels/video?channels_ids=201%2C202&dates=2026-11-21&per_page=3&page=3`);
      expect(links.first).toMatch(new RegExp(`^${BASE}/.*page=1$`));
    });
  });

  describe('with PUBLIC_URL', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await customTestApp(backend, { PUBLIC_URL: 'https://tv.example.com' });
    });
    afterAll(() => t.close());

    it('starts every link with the configured URL whatever Host says', async () => {
      const { links, path } = await pageOf(t, { host: 'evil.example' });
      expect(path).toBe(`https://tv.example.com${BASE}/users/11/channels/video`);
      for (const link of [links.first, links.last, links.prev, links.next]) expect(link).toMatch(/^https:\/\/tv\.example\.com\/api\//);
    });
  });
});

describe('PUBLIC_URL', () => {
  it('must be an http(s) URL without query or fragment; a trailing slash is dropped', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://tv.example.com/base/' }).PUBLIC_URL).toBe('https://tv.example.com/base');
    for (const bad of ['tv.example.com', 'ftp://tv.example.com', 'https://tv.example.com/?a=1', 'https://tv.example.com/#x']) {
      expect(() => loadConfig({ PUBLIC_URL: bad })).toThrow(/PUBLIC_URL/);
    }
  });
});

describe.each(BACKENDS)('REST body types on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, smallCatalog());
  });
  afterAll(() => t.close());

  it('answers a login sent as text/plain 415 unsupported_media_type, as docs/rest.md says', async () => {
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/xml']) {
      const payload = type.startsWith('application/x-www')
        ? `username=alice&password=${encodeURIComponent(OWNER.password)}`
        : JSON.stringify({ username: 'alice', password: OWNER.password });
      const response = await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', headers: { 'content-type': type }, payload });
      expect([type, response.statusCode, response.json()]).toEqual([type, 415, { success: false, error: { code: 'unsupported_media_type', message: expect.any(String) } }]);
    }
    const json = await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'alice', password: OWNER.password } });
    expect(json.statusCode).toBe(200);
  });
});

describe('channelnet config', () => {
  it('masks every secret in URLs: user:password@ and secret query parameters', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://app:hunter2@db.example:5432/channelnet?sslmode=require&password=hunter3&sslpassword=hunter4&application_name=cn',
      STORE_ROKU_URL: 'https://user:hunter5@roku.example/api?token=hunter6',
    });
    const described = JSON.stringify(describeConfig(config));
    expect(described).not.toMatch(/hunter/);
    expect(describeConfig(config).DATABASE_URL).toBe('postgres://app:****@db.example:5432/channelnet?sslmode=require&password=****&sslpassword=****&application_name=cn');
    expect(maskUrlSecrets('postgresql:///channelnet?host=/var/run/postgresql&PassWord=x')).toBe('postgresql:///channelnet?host=/var/run/postgresql&PassWord=****');
    expect(maskUrlSecrets('postgres://p%40ss:w@rd@db/x')).toBe('postgres://p%40ss:****@db/x');
    expect(maskUrlSecrets('postgres://app@db/x')).toBe('postgres://app@db/x');
    expect(maskUrlSecrets('./data')).toBe('./data');
  });
});

describe('channelnet export --out', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'channelnet-export-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { env: childEnv({ DATA_DIR: join(dir, 'data') }) });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });

  it('writes a file only its owner can read, also over an existing world-readable one', async () => {
    const existing = join(dir, 'existing.json');
    writeFileSync(existing, 'old', { mode: 0o644 });
    const result = await run(['export', '--out', existing]);
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(existing).mode & 0o777).toBe(0o600);
    // A new file (demo --out writes through the same function, without opening a database).
    const demo = join(dir, 'demo.json');
    expect((await run(['demo', '--out', demo])).code).toBe(0);
    expect(statSync(demo).mode & 0o777).toBe(0o600);
  }, 60_000);
});

describe('MAX_CONNECTIONS', () => {
  /** A connection that has been answered once (so the server counts it), kept open. */
  const answered = (port: number) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
      socket.once('data', (data) => (String(data).startsWith('HTTP/1.1 200') ? resolve(socket) : reject(new Error(String(data)))));
      socket.once('error', reject);
    });
  /** What a new connection gets: an answer, or closed without one. */
  const attempt = (port: number) =>
    new Promise<'answered' | 'closed'>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(data.startsWith('HTTP/1.1 200') ? 'answered' : 'closed'));
    });

  it('closes connections past the cap as they arrive, and accepts again once one closes', async () => {
    const config = { ...loadConfig({}), PORT: 0, HOST: '127.0.0.1', DATA_DIR: 'memory://', DEMO_ON_EMPTY: false, LOG_LEVEL: 'silent' as const, MAX_CONNECTIONS: 2 };
    const server = await startServer(config);
    try {
      const port = Number(new URL(server.url).port);
      const open = [await answered(port), await answered(port)];
      expect(await attempt(port)).toBe('closed');
      const gone = new Promise((resolve) => open[0]!.once('close', resolve));
      open[0]!.destroy();
      await gone;
      await expect.poll(() => attempt(port), { timeout: 5_000, interval: 50 }).toBe('answered');
      open[1]!.destroy();
    } finally {
      await server.stop();
    }
  });

  it('defaults to 10000; 0 means no limit', () => {
    expect(loadConfig({}).MAX_CONNECTIONS).toBe(10_000);
    expect(loadConfig({ MAX_CONNECTIONS: '0' }).MAX_CONNECTIONS).toBe(0);
  });
});
