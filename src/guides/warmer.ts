// Keeps the guides that are fetched from outside warm ahead of their requests: for every app with
// a live XMLTV key (src/access/epg-keys.ts: what FAST platforms and IPTV players poll), today and
// the next days of each of its channels are queued for the background preparer
// (prepared-guides.ts), which skips what is kept. It runs
// - when the process is ready;
// - after catalog changes (a change drops the changed channels' days; a few seconds later they are
//   prepared again, for the owners that changed, so a player polling after a change finds them warm);
// - every few minutes (the `guide_warm` job of src/jobs.ts), which also covers the day rolling over
//   in each channel's zone (one more day than asked is kept, so the new last day is warm before it
//   is needed).
// The days kept per app are GUIDE_WARM_DAYS, or more once a request asked that app for more.
import type { Clock } from '../clock.ts';
import { scopedChannels } from '../channels/listing.ts';
import { appsWithLiveEpgKeys } from '../data/epg-keys.ts';
import type { Queryable } from '../db/connect.ts';
import { guideAsks, MAX_GUIDE_DAYS } from '../schedules/guide-export.ts';
import type { PreparedGuides } from './prepared-guides.ts';

/** Between two warmings on the clock. */
export const WARM_EVERY_MS = 10 * 60_000;
/** After a change, before warming again (changes come in bursts: an editing session, an import). */
export const WARM_AFTER_CHANGE_MS = 5_000;

export class GuideWarmer {
  /** Days asked by requests, per app, beyond the configured days. */
  private readonly asked = new Map<number, number>();
  private readonly changedOwners = new Set<number>();
  private allChanged = false;
  private active = false;
  private changeTimer: NodeJS.Timeout | undefined;
  private warming: Promise<void> | undefined;

  constructor(
    private readonly guides: PreparedGuides,
    private readonly db: Queryable,
    private readonly days: number,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** A request asked this app's guide for `days` days: keep that many warm for it from now on. */
  remember(appId: number, days: number): void {
    if (days > (this.asked.get(appId) ?? this.days)) this.asked.set(appId, days);
  }

  /**
   * Queues today and the next days of every keyed app's channels (of `owners` only, when given)
   * for the preparer; resolves once queued (the preparer's `whenIdle` once prepared).
   */
  async warm(now: Date = this.clock(), owners?: ReadonlySet<number>): Promise<void> {
    const apps = (await appsWithLiveEpgKeys(this.db)).filter((app) => !owners || owners.has(app.ownerId));
    for (const app of apps) {
      const channels = await scopedChannels(this.db, app.ownerId, app);
      const days = Math.min(MAX_GUIDE_DAYS, this.asked.get(app.id) ?? this.days) + 1;
      this.guides.prepare(guideAsks(channels, days, now));
    }
  }

  /** Warms now, and after changes until stop(); the warmings on the clock are a job (src/jobs.ts). */
  start(): void {
    this.active = true;
    void this.run(undefined); // run() reports its own failures (onError)
  }

  /** A warming of every keyed app after the one under way (the job's run); resolves when queued. */
  warmInTurn(): Promise<void> {
    return this.run(undefined);
  }

  /** A catalog change (told by the catalog cache): warm that owner's guides again soon; 'all' every guide. */
  changed(ownerId: number | 'all'): void {
    if (!this.active) return;
    if (ownerId === 'all') this.allChanged = true;
    else this.changedOwners.add(ownerId);
    if (this.changeTimer) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      const owners = this.allChanged ? undefined : new Set(this.changedOwners);
      this.allChanged = false;
      this.changedOwners.clear();
      void this.run(owners);
    }, WARM_AFTER_CHANGE_MS);
    this.changeTimer.unref();
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.changeTimer) clearTimeout(this.changeTimer);
    this.changeTimer = undefined;
    await this.warming;
  }

  /** One warming at a time, the next after the one under way; a failed one (a lost database) is reported and tried again on the next occasion. */
  private run(owners: ReadonlySet<number> | undefined): Promise<void> {
    const next = (this.warming ?? Promise.resolve())
      .then(() => this.warm(this.clock(), owners))
      .catch(this.onError)
      .finally(() => {
        if (this.warming === next) this.warming = undefined;
      });
    this.warming = next;
    return next;
  }
}
