// Gives every request its own "now" (request.now). With CHANNELNET_TEST_CLOCK=1 the
// X-Test-Now header sets it, so tests can move time without sleeping.
import fp from 'fastify-plugin';
import { parseTestNow, systemClock, type Clock } from '../clock.ts';

declare module 'fastify' {
  interface FastifyRequest {
    now: Date;
  }
}

export interface ClockPluginOptions {
  testClock: boolean;
  clock?: Clock;
}

export const clockPlugin = fp<ClockPluginOptions>(
  async (app, options) => {
    const clock = options.clock ?? systemClock;
    app.decorateRequest('now', null as unknown as Date);
    if (!options.testClock) {
      // A callback hook, not async: no promise on every request (the per-request floor, issue 35).
      app.addHook('onRequest', (request, _reply, done) => {
        request.now = clock();
        done();
      });
      return;
    }
    app.log.warn('CHANNELNET_TEST_CLOCK is on: the X-Test-Now header sets the time of each request. Never use it in production.');
    app.addHook('onRequest', async (request) => {
      const header = request.headers['x-test-now'];
      request.now = (typeof header === 'string' && parseTestNow(header)) || clock();
    });
  },
  { name: 'channelnet-clock' },
);
