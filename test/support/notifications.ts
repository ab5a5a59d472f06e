// The store notification suites' world: the entitlement catalog with notification credentials
// on every store, and the stores' own senders played by the test: Apple signing notifications
// with the test chain, Pub/Sub pushing with an OIDC token of a test key that the fake Google
// publishes as its JWKS, SNS signing with a test certificate the fake Amazon serves, and Roku
// posting plain transaction data. The worker's clock is the test's.
import { execFileSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { DatabaseKind } from '../../src/db/connect.ts';
import { ppvUnlocks, storeNotifications, storeReconciliations, subscriptions, verificationAttempts } from '../../src/db/schema.ts';
import { signJwt } from '../../src/entitlements/stores/jwt.ts';
import { signAppleJws } from '../stores/support/apple-pki.ts';
import type { Received, Reply } from '../stores/support/server.ts';
import { testApp, type TestApp } from './app.ts';
import { APPLE_BUNDLE, DAY, entitlementCatalog, GOOGLE_PACKAGE, NOW, SKU, type Stores } from './entitlements.ts';

export const APPLE_APP_ID = 1234567890;
export const PUSH_AUDIENCE = 'https://channelnet.example/api/v1/stores/google/302';
export const PUSH_ACCOUNT = 'rtdn-push@alice.iam.gserviceaccount.com';
export const TOPIC = 'arn:aws:sns:us-east-1:123456789012:alice-rtn';
export const AMAZON_PACKAGE = 'com.alice.fire';
export const GOOGLE_MONTHLY = 'alice.google.monthly';
export const URL_OF = { apple: '/api/v1/stores/apple/301', google: '/api/v1/stores/google/302', amazon: '/api/v1/stores/amazon/304', roku: '/api/v1/stores/roku/303' } as const;

/** The entitlement catalog, with what each app configures to receive its store's notifications. */
export function notificationCatalog(stores: Stores) {
  const catalog = entitlementCatalog(stores);
  const app = (id: number) => catalog.apps.find((a: any) => a.id === id);
  app(301).storeCredentials.apple.appAppleId = APPLE_APP_ID;
  Object.assign(app(302).storeCredentials.google, { pushAudience: PUSH_AUDIENCE, pushServiceAccount: PUSH_ACCOUNT });
  app(302).storeProducts = [{ storePlatform: 'Google', productId: GOOGLE_MONTHLY, billingPeriod: 'Monthly' }];
  Object.assign(app(304).storeCredentials.amazon, { snsTopicArn: TOPIC, appPackageName: AMAZON_PACKAGE });
  return catalog;
}

/** An RSA key with a self-signed certificate valid 2020-2040 (fixed test clocks fall inside). */
function rsaCertificate(cn: string): { pem: string; key: KeyObject } {
  const dir = mkdtempSync(join(tmpdir(), 'sns-pki-'));
  try {
    mkdirSync(join(dir, 'certs'));
    writeFileSync(join(dir, 'index.txt'), '');
    writeFileSync(join(dir, 'serial'), '1000\n');
    writeFileSync(
      join(dir, 'ca.cnf'),
      `[ ca ]\ndefault_ca = c\n[ c ]\ndir = ${dir}\ndatabase = ${dir}/index.txt\nnew_certs_dir = ${dir}/certs\nserial = ${dir}/serial\ndefault_md = sha256\npolicy = p\nunique_subject = no\n[ p ]\ncommonName = supplied\n[ req ]\ndistinguished_name = dn\n[ dn ]\n`,
    );
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    run('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'k.pem');
    run('req', '-new', '-config', 'ca.cnf', '-key', 'k.pem', '-subj', `/CN=${cn}`, '-out', 'c.csr');
    run(
      'ca',
      '-batch',
      '-notext',
      '-config',
      'ca.cnf',
      '-selfsign',
      '-keyfile',
      'k.pem',
      '-in',
      'c.csr',
      '-out',
      'c.pem',
      '-startdate',
      '20200101000000Z',
      '-enddate',
      '20400101000000Z',
    );
    return { pem: readFileSync(join(dir, 'c.pem'), 'utf8'), key: createPrivateKey(readFileSync(join(dir, 'k.pem'))) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Senders {
  googleKey: KeyObject;
  sns: { pem: string; key: KeyObject };
  /** SubscribeURLs the fake SNS was asked to confirm. */
  confirmed: string[];
  /** Apple's notification history and Google's voided purchases, as the stores would page them. */
  appleHistory: string[];
  googleVoided: Record<string, unknown>[];
}

/** Teaches the fake stores their notification-side endpoints; call once per Stores. */
export function addSenders(stores: Stores): Senders {
  const senders: Senders = {
    googleKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
    sns: rsaCertificate('sns.us-east-1.amazonaws.com'),
    confirmed: [],
    appleHistory: [],
    googleVoided: [],
  };
  // Google's keys and SNS's certificates are served apart from the store APIs: they stay up when a test takes the API down.
  const always = (url: string) => url === '/certs' || url === '/sns/cert.pem';
  const wrap = (store: Stores['google'], extra: (request: Received) => Reply | undefined) => {
    const original = store.server.reply;
    store.server.reply = (request) => (store.mode === 'up' || always(request.url) ? extra(request) : undefined) ?? original(request);
  };
  wrap(stores.google, (request) => {
    if (request.url === '/certs')
      return {
        json: {
          keys: [
            {
              ...senders.googleKey.export({ format: 'jwk' }),
              kid: 'test-kid',
              alg: 'RS256',
              use: 'sig',
              d: undefined,
              p: undefined,
              q: undefined,
              dp: undefined,
              dq: undefined,
              qi: undefined,
            },
          ],
        },
      };
    if (request.url.startsWith(`/androidpublisher/v3/applications/${GOOGLE_PACKAGE}/purchases/voidedpurchases`)) return { json: { voidedPurchases: senders.googleVoided } };
    return undefined;
  });
  wrap(stores.amazon, (request) => {
    if (request.url === '/sns/cert.pem') return { text: senders.sns.pem, contentType: 'application/x-pem-file' };
    if (request.url.startsWith('/sns/confirm')) {
      senders.confirmed.push(request.url);
      return { text: '<ConfirmSubscriptionResponse/>', contentType: 'text/xml' };
    }
    return undefined;
  });
  wrap(stores.apple, (request) => {
    if (request.url.startsWith('/inApps/v1/notifications/history')) {
      return { json: { notificationHistory: senders.appleHistory.map((signedPayload) => ({ signedPayload, sendAttempts: [] })), hasMore: false } };
    }
    return undefined;
  });
  return senders;
}

/** The file's fake stores with their senders added (once, on first use) and the senders. */
export function withSenders(stores: () => Stores): { stores: () => Stores; senders: () => Senders } {
  let senders: Senders | undefined;
  const ready = () => (senders ??= addSenders(stores()));
  return { stores: () => (ready(), stores()), senders: ready };
}

export function senderConfig(stores: Stores) {
  return {
    STORE_GOOGLE_OIDC_CERTS_URL: `${stores.google.server.url}/certs`,
    STORE_AMAZON_SNS_URL_PREFIX: `${stores.amazon.server.url}/sns/`,
  };
}

/** A StoreKit 2 transaction of the Alice app (the one appleJws signs), decoded. */
export function appleTransaction(overrides: Record<string, unknown> = {}) {
  return {
    transactionId: '2000000111',
    originalTransactionId: '2000000100',
    bundleId: APPLE_BUNDLE,
    productId: SKU.appleMonthly,
    purchaseDate: NOW.getTime() - DAY,
    expiresDate: NOW.getTime() + 30 * DAY,
    type: 'Auto-Renewable Subscription',
    signedDate: NOW.getTime() - DAY,
    environment: 'Production',
    inAppOwnershipType: 'PURCHASED',
    ...overrides,
  };
}

export interface AppleNotice {
  type: string;
  subtype?: string;
  uuid: string;
  signedAt?: number;
  status?: number;
  transaction?: Record<string, unknown>;
  renewal?: Record<string, unknown>;
  bundleId?: string;
  environment?: string;
}

/** The signedPayload Apple would send; the transaction and renewal info signed inside it. */
export function appleSignedPayload(stores: Stores, n: AppleNotice): string {
  const environment = n.environment ?? 'Production';
  const tx = appleTransaction({ environment, ...n.transaction });
  const renewal = {
    originalTransactionId: tx.originalTransactionId,
    autoRenewProductId: SKU.appleMonthly,
    productId: SKU.appleMonthly,
    autoRenewStatus: 1,
    signedDate: n.signedAt ?? NOW.getTime(),
    environment,
    ...n.renewal,
  };
  return signAppleJws(stores.chain, {
    notificationType: n.type,
    ...(n.subtype ? { subtype: n.subtype } : {}),
    notificationUUID: n.uuid,
    version: '2.0',
    signedDate: n.signedAt ?? NOW.getTime(),
    data: {
      appAppleId: APPLE_APP_ID,
      bundleId: n.bundleId ?? APPLE_BUNDLE,
      bundleVersion: '1',
      environment,
      signedTransactionInfo: signAppleJws(stores.chain, tx),
      signedRenewalInfo: signAppleJws(stores.chain, renewal),
      ...(n.status === undefined ? {} : { status: n.status }),
    },
  });
}

export const appleBody = (stores: Stores, n: AppleNotice) => JSON.stringify({ signedPayload: appleSignedPayload(stores, n) });

/** A Pub/Sub push of a developer notification, with Pub/Sub's OIDC token. */
export function googlePush(senders: Senders, data: Record<string, unknown>, options: { messageId: string; audience?: string; email?: string; key?: KeyObject; exp?: number }) {
  const iat = Math.floor(NOW.getTime() / 1000);
  const token = signJwt(
    { alg: 'RS256', kid: 'test-kid' },
    {
      iss: 'https://accounts.google.com',
      aud: options.audience ?? PUSH_AUDIENCE,
      email: options.email ?? PUSH_ACCOUNT,
      email_verified: true,
      iat,
      exp: options.exp ?? iat + 3600,
      sub: '1234',
    },
    options.key ?? senders.googleKey,
  );
  const message = {
    data: Buffer.from(JSON.stringify({ version: '1.0', packageName: GOOGLE_PACKAGE, eventTimeMillis: String(NOW.getTime()), ...data })).toString('base64'),
    messageId: options.messageId,
    publishTime: NOW.toISOString(),
  };
  return {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ message, subscription: 'projects/alice/subscriptions/rtdn' }),
  };
}

/** An SNS message as SNS signs it (SignatureVersion 2), from the fake Amazon's certificate URL. */
export function snsMessage(stores: Stores, senders: Senders, fields: Record<string, string>, key: KeyObject = senders.sns.key): string {
  const message: Record<string, string> = {
    Type: 'Notification',
    MessageId: 'sns-1',
    TopicArn: TOPIC,
    Timestamp: NOW.toISOString(),
    SignatureVersion: '2',
    SigningCertURL: `${stores.amazon.server.url}/sns/cert.pem`,
    ...fields,
  };
  const keys =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const canonical = keys
    .filter((k) => message[k] !== undefined)
    .map((k) => `${k}\n${message[k]}\n`)
    .join('');
  message.Signature = sign('sha256', Buffer.from(canonical), key).toString('base64');
  return JSON.stringify(message);
}

export function rtnMessage(fields: Record<string, unknown>): string {
  return JSON.stringify({ appPackageName: AMAZON_PACKAGE, appUserId: 'amzn-user-1', timestamp: NOW.getTime(), betaProductTransaction: false, ...fields });
}

/** A settable clock for the app's worker, starting at the tests' NOW. */
export function testClock() {
  let now = NOW;
  return { clock: () => now, set: (to: Date) => void (now = to) };
}

/** One app per describe block on the notification catalog; entitlement and inbox tables emptied before each test. */
export function useNotificationApp(kind: DatabaseKind, stores: () => Stores, clock: () => Date): () => TestApp {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, notificationCatalog(stores()), { ...stores().config, ...senderConfig(stores()) }, clock);
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.app.storeNotifications.inbox.idle();
    for (const table of [subscriptions, ppvUnlocks, verificationAttempts, storeNotifications, storeReconciliations]) await t.database.db.delete(table);
  });
  return () => t;
}
