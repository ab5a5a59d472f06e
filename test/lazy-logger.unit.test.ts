// The request logger is made only when a request logs at an enabled level (issue 35, item 3),
// and then writes what pino's own child writes: the request id bound, secrets redacted.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, loggerOptions } from '../src/observability/logger.ts';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) });
  const parent = pino(loggerOptions(level), stream);
  let children = 0;
  const child = parent.child.bind(parent);
  parent.child = ((...args: Parameters<typeof child>) => (children++, child(...args))) as typeof parent.child;
  return { parent, lines, children: () => children };
}

describe('the lazy request logger', () => {
  it('makes no child for a request that logs nothing at an enabled level', () => {
    const { parent, lines, children } = capture('warn');
    const log = lazyChildLogger.call(undefined as never, parent, { reqId: 'r-1' }, {}, undefined as never);
    log.info('not at this level');
    log.debug({ x: 1 }, 'nor this');
    expect([children(), lines.length, log.level]).toEqual([0, 0, 'warn']);
  });

  it("writes what pino's child writes once it logs: the request id bound, secrets redacted", () => {
    const { parent, lines, children } = capture('info');
    const log = lazyChildLogger.call(undefined as never, parent, { reqId: 'r-2' }, {}, undefined as never);
    log.warn({ password: 'hunter2' }, 'first');
    log.error('second');
    expect(children()).toBe(1);
    expect(lines.map((l) => [l['reqId'], l['msg'], l['password']])).toEqual([
      ['r-2', 'first', '[redacted]'],
      ['r-2', 'second', undefined],
    ]);
    expect(log.child({ more: 1 }).level).toBe('info');
  });
});
