// The inbox worker: takes due notifications (several processes may run one: claims skip each
// other's rows), applies each, and marks it done in the same transaction as its effect, so an
// effect is written once even if a process dies mid-way (its lease runs out and another takes
// the row again). A store that does not answer is asked again later, with backoff.
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/connect.ts';
import { claimDueNotifications, finishNotification, postponeNotification, type NotificationRow, type Outcome } from '../../data/store-notifications.ts';
import { storeNotifications } from '../../observability/metrics.ts';
import type { StoreVerifiers } from '../stores/index.ts';
import { decideNotification } from './apply.ts';
import { typeLabel } from './labels.ts';

const BATCH = 20;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 6 * 3_600_000;
/** About four days of retries; then the notification is failed and reconciliation is the way back. */
export const MAX_ATTEMPTS = 20;

export interface InboxLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface InboxOptions {
  db: Database;
  verifiers: StoreVerifiers;
  clock: Clock;
  log: InboxLog;
  /** Longer than a store re-read can take (STORE_NOTIFICATION_LEASE_SECONDS). */
  leaseMs: number;
}

class Overtaken extends Error {}

export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);

export class NotificationInbox {
  private running: Promise<number> | undefined;
  private again = false;

  constructor(private readonly options: InboxOptions) {}

  /** Starts a drain soon (a notification just arrived); a drain under way runs once more. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drainAll().finally(() => (this.running = undefined));
  }

  /** Resolves once no drain is under way (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** A drain now (or the one under way, once more), resolved when the inbox is idle: the poll job (src/jobs.ts). */
  drainSoon(): Promise<void> {
    this.kick();
    return this.idle();
  }

  /** Applies every due notification; the number handled. */
  async drain(): Promise<number> {
    let handled = 0;
    for (;;) {
      const rows = await claimDueNotifications(this.options.db, this.options.clock(), this.options.leaseMs, BATCH);
      for (const row of rows) await this.handle(row);
      handled += rows.length;
      if (rows.length < BATCH) return handled;
    }
  }

  private async drainAll(): Promise<number> {
    let handled = 0;
    do {
      this.again = false;
      try {
        handled += await this.drain();
      } catch (error) {
        this.options.log.error({ err: error }, 'store notification inbox: drain failed');
      }
    } while (this.again);
    return handled;
  }

  private async handle(row: NotificationRow): Promise<void> {
    const { db, verifiers, clock } = this.options;
    const now = clock();
    const count = (result: string) => storeNotifications.inc({ store: row.storePlatform, type: typeLabel(row.storePlatform, row.type), result });
    try {
      const decision = await decideNotification({ db, verifiers, now }, row);
      if ('retry' in decision) {
        await this.postpone(row, now, decision.retry);
        count(row.attempts >= MAX_ATTEMPTS ? 'failed' : 'retry');
        return;
      }
      const outcome = await db.transaction(async (tx) => {
        const done: Outcome = 'done' in decision ? decision.done : await decision.write(tx);
        if (!(await finishNotification(tx, row, done, now))) throw new Overtaken();
        return done;
      });
      count(outcome.state);
    } catch (error) {
      if (error instanceof Overtaken) return;
      this.options.log.error({ err: error, notification: row.id, store: row.storePlatform }, 'store notification could not be applied');
      await this.postpone(row, now, `error: ${error instanceof Error ? error.message : String(error)}`).catch(() => undefined);
      count('retry');
    }
  }

  private async postpone(row: NotificationRow, now: Date, why: string): Promise<void> {
    const { db, log } = this.options;
    if (row.attempts >= MAX_ATTEMPTS) {
      await finishNotification(db, row, { state: 'failed', result: `gave up after ${row.attempts} attempts: ${why}` }, now);
      log.warn({ notification: row.id, store: row.storePlatform, type: row.type }, 'store notification failed: retries exhausted');
      return;
    }
    await postponeNotification(db, row, new Date(now.getTime() + retryDelayMs(row.attempts)), `waiting: ${why}`);
  }
}
