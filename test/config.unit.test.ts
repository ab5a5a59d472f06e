import { describe, expect, it } from 'vitest';
import { describeConfig, loadConfig } from '../src/config.ts';

describe('configuration from the environment', () => {
  it('applies documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, DATA_DIR: './data', DB_POOL_SIZE: 10, CHANNELNET_TEST_CLOCK: false, DEMO_ON_EMPTY: true });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(8080);
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ CHANNELNET_TEST_CLOCK: 'yes' })).toThrow(/CHANNELNET_TEST_CLOCK/);
  });

  it('masks the database password when describing the configuration', () => {
    const described = describeConfig(loadConfig({ DATABASE_URL: 'postgres://app:hunter2@db.example:5432/channelnet' }));
    expect(described.DATABASE_URL).toBe('postgres://app:****@db.example:5432/channelnet');
  });

  it('reads the provider APIs (YouTube off without a key) and masks their key and token', () => {
    const defaults = loadConfig({});
    expect([defaults.YOUTUBE_API_KEY, defaults.YOUTUBE_API_URL, defaults.VIMEO_API_URL, defaults.VIMEO_API_TOKEN, defaults.PROVIDER_API_TIMEOUT_MS]).toEqual([
      '',
      'https://www.googleapis.com/youtube/v3',
      'https://api.vimeo.com',
      '',
      5000,
    ]);
    const described = describeConfig(loadConfig({ YOUTUBE_API_KEY: 'AIzaSecret', VIMEO_API_TOKEN: 'vimeo-secret' }));
    expect([described.YOUTUBE_API_KEY, described.VIMEO_API_TOKEN]).toEqual(['****', '****']);
    expect(describeConfig(defaults).YOUTUBE_API_KEY).toBe('');
    expect(() => loadConfig({ YOUTUBE_API_URL: 'ftp://x' })).toThrow(/YOUTUBE_API_URL/);
    expect(() => loadConfig({ PROVIDER_API_TIMEOUT_MS: '10' })).toThrow(/PROVIDER_API_TIMEOUT_MS/);
  });
});

describe('MEDIA_FETCH_ALLOW_ORIGINS', () => {
  it('reads origins, comma-separated, and refuses anything else', () => {
    expect(loadConfig({}).MEDIA_FETCH_ALLOW_ORIGINS).toEqual([]);
    expect(loadConfig({ MEDIA_FETCH_ALLOW_ORIGINS: 'http://127.0.0.1:8500, https://media.lan/' }).MEDIA_FETCH_ALLOW_ORIGINS).toEqual([
      'http://127.0.0.1:8500',
      'https://media.lan',
    ]);
    expect(() => loadConfig({ MEDIA_FETCH_ALLOW_ORIGINS: 'http://127.0.0.1:8500/videos' })).toThrow(/MEDIA_FETCH_ALLOW_ORIGINS: not an http\(s\) origin/);
  });
});
