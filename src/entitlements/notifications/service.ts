// Store server notifications, from the request to the inbox: the app the URL names, its
// credentials for the store, the store's own authenticity check, then one row per notification
// in the inbox (a repeat is a no-op) and a nudge to the worker. The group only parses and presents.
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connect.ts';
import { enqueueNotification, findApp, markOnce } from '../../data/store-notifications.ts';
import { activeSkuIds, storeCredentialsOf } from '../../data/store-products.ts';
import { rokuApiKeySent, storeNotifications } from '../../observability/metrics.ts';
import { storeVerifierOptions } from '../store-options.ts';
import { createStoreVerifiers, credentialsKey, type StorePlatform, type StoreVerifierOptions, type StoreVerifiers } from '../stores/index.ts';
import { reconcile, type ReconcileLine } from './reconcile.ts';
import { receiveAmazon } from './amazon.ts';
import { SnsVerifier } from './amazon-sns.ts';
import { receiveApple } from './apple.ts';
import { receiveGoogle } from './google.ts';
import { GOOGLE_OIDC_CERTS_URL, GoogleOidcKeys } from './google-oidc.ts';
import { NotificationInbox, type InboxLog } from './inbox.ts';
import { typeLabel } from './labels.ts';
import { receiveRoku } from './roku.ts';
import { sourceList, type SourceList } from './sources.ts';
import { refuse, type InboundRequest, type NotificationRefusal, type NotifiedApp, type Received, type SecretAcknowledgement } from './types.ts';

export interface Accepted extends Received {
  /** How many of the notifications were new (the others were repeats). */
  fresh: number;
  /** Set when this answer carries Roku's API key (the group logs it: app, transaction, address). */
  keySent?: { transactionId: string };
}

export class StoreNotifications {
  readonly inbox: NotificationInbox;
  readonly verifiers: StoreVerifiers;
  private readonly roots: readonly Buffer[];
  private readonly options: StoreVerifierOptions;
  private readonly oidc: GoogleOidcKeys;
  private readonly sns: SnsVerifier;
  private readonly rokuSources: SourceList;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    clock: Clock,
    log: InboxLog,
  ) {
    const options = storeVerifierOptions(config);
    this.options = options;
    this.verifiers = createStoreVerifiers(options);
    this.roots = options.apple?.rootCertificates ?? [];
    this.oidc = new GoogleOidcKeys(config.STORE_GOOGLE_OIDC_CERTS_URL ?? GOOGLE_OIDC_CERTS_URL, config.STORE_TIMEOUT_MS);
    this.sns = new SnsVerifier({ urlPrefix: config.STORE_AMAZON_SNS_URL_PREFIX, timeoutMs: config.STORE_TIMEOUT_MS });
    this.rokuSources = sourceList(config.ROKU_NOTIFY_SOURCES);
    this.inbox = new NotificationInbox({ db, verifiers: this.verifiers, clock, log, leaseMs: config.STORE_NOTIFICATION_LEASE_SECONDS * 1000 });
  }

  /** Reads the stores' histories into the inbox (reconcile.ts), then applies what is due. */
  async reconcile(now: Date, since?: Date): Promise<ReconcileLine[]> {
    const lines = await reconcile({ db: this.db, options: this.options, roots: this.roots, timeoutMs: this.config.STORE_TIMEOUT_MS, now, since });
    await this.inbox.drain();
    return lines;
  }

  /** Verifies the request and keeps what it carries; a refusal keeps nothing but a counter. */
  async receive(store: StorePlatform, appId: number, request: InboundRequest): Promise<Accepted | NotificationRefusal> {
    const target =
      store === 'Roku' && !this.rokuSources.allows(request.address)
        ? refuse('forbidden_source', `${request.address} is not in ROKU_NOTIFY_SOURCES`)
        : await this.target(store, appId);
    const received = 'refused' in target ? target : await this.verify(target, request);
    if ('refused' in received) {
      storeNotifications.inc({ store, type: 'unverified', result: 'refused' });
      return received;
    }
    const fresh = await this.keep(store, appId, received, request.now);
    if (!received.secret || !received.reply) return { ...received, fresh };
    const sent = await this.sendSecretOnce(store, appId, received.secret, request);
    const reply = sent ? { ...received.reply, headers: { ...received.reply.headers, ...received.secret.headers } } : received.reply;
    return { notifications: received.notifications, reply, fresh, ...(sent ? { keySent: { transactionId: received.secret.transactionId } } : {}) };
  }

  /** Writes the notifications into the inbox (a repeat is a no-op) and nudges the worker; how many were new. */
  private async keep(store: StorePlatform, appId: number, received: Received, now: Date): Promise<number> {
    let fresh = 0;
    for (const n of received.notifications) {
      const isNew = await enqueueNotification(this.db, { storePlatform: store, appId, ...n }, now);
      storeNotifications.inc({ store, type: typeLabel(store, n.type), result: isNew ? 'accepted' : 'duplicate' });
      if (isNew) fresh += 1;
    }
    if (fresh > 0) this.inbox.kick();
    return fresh;
  }

  /** Records the acknowledgement's mark; only the answer that records it first carries the secret. */
  private async sendSecretOnce(store: StorePlatform, appId: number, secret: SecretAcknowledgement, request: InboundRequest): Promise<boolean> {
    const mark = { storePlatform: store, appId, notificationId: secret.mark, type: secret.type, eventAt: secret.eventAt };
    const first = await markOnce(this.db, { ...mark, result: `acknowledged with the API key, to ${request.address}` }, request.now);
    if (first) rokuApiKeySent.inc({ app: String(appId) });
    return first;
  }

  private async target(store: StorePlatform, appId: number): Promise<NotifiedApp | NotificationRefusal> {
    const app = await findApp(this.db, appId);
    const credentials = app ? await storeCredentialsOf(this.db, app.id, credentialsKey(store)) : {};
    // One answer for an unknown app and an app not sold on this store: the URL names nothing to notify.
    if (!app || Object.keys(credentials).length === 0) return refuse('not_configured', `app ${appId} has no ${store} credentials`);
    return { app, store, credentials };
  }

  private verify(target: NotifiedApp, request: InboundRequest): Promise<Received | NotificationRefusal> {
    switch (target.store) {
      case 'Apple':
        return receiveApple(request, target, this.roots);
      case 'Google':
        return receiveGoogle(request, target, this.oidc);
      case 'Amazon':
        return receiveAmazon(request, target, this.sns, this.config.STORE_TIMEOUT_MS);
      case 'Roku':
        return receiveRoku(request, target, (transactionId) => this.confirmRoku(target, transactionId, request.now));
    }
  }

  private async confirmRoku(target: NotifiedApp, transactionId: string, now: Date) {
    const [subscriptions, ppv] = await Promise.all([activeSkuIds(this.db, target.app.id, 'subscription'), activeSkuIds(this.db, target.app.id, 'ppv')]);
    const productIds = [...subscriptions('Roku'), ...ppv('Roku')];
    try {
      return await this.verifiers('Roku').verifySubscription({ credentials: target.credentials, productIds, receiptData: transactionId, allowSandbox: true, now });
    } catch (error) {
      return { outcome: 'unavailable' as const, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
