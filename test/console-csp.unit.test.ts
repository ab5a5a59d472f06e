// The console's policy with the origins an operator allowed for creators' media: added to media
// and segment fetches only, and nothing that could end a directive gets in.
import { describe, expect, it } from 'vitest';
import { consoleCsp } from '../src/http/page-headers.ts';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('the console policy', () => {
  it('lets the linear stream fetch segments over HTTPS and play through Media Source', () => {
    const csp = consoleCsp();
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https:");
    expect(directive(csp, 'media-src')).toBe("media-src 'self' https: blob:");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(csp).not.toMatch(/worker-src|blob:[^;]*;.*script/);
  });

  it('adds allowed media origins to media and connect only, and refuses anything that is not one origin', () => {
    const csp = consoleCsp(['http://127.0.0.1:8500', "https://x.example; script-src 'unsafe-inline'", 'javascript:alert(1)']);
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https: http://127.0.0.1:8500");
    expect(directive(csp, 'media-src')).toBe("media-src 'self' https: blob: http://127.0.0.1:8500");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(csp.match(/script-src/g)).toHaveLength(1);
  });
});
