// The store verifiers behind one interface, plus the documentation of what each store needs in
// an app's storeCredentials and what the client sends as receipt_data (docs/entitlements.md renders both).
import { STORE_PLATFORMS, type CredentialStore } from '../../vocabulary.ts';
import { amazonVerifier, type AmazonOptions } from './amazon.ts';
import { appleVerifier, type AppleOptions } from './apple.ts';
import { googleVerifier, type GoogleOptions } from './google.ts';
import { rokuVerifier, type RokuOptions } from './roku.ts';
import type { StoreCredentials, StorePlatform, StoreVerifier } from './types.ts';

export type * from './types.ts';
export { loadAppleRootCertificates, APPLE_ROOT_CERTIFICATES_ENV } from './apple-roots.ts';

/** The stores' names live in the vocabulary; callers of the verifiers find them here too. */
export { STORE_PLATFORMS };

/** store_platform as clients send it ("Apple", "apple"...), or undefined for anything else. */
export function parseStorePlatform(value: unknown): StorePlatform | undefined {
  return STORE_PLATFORMS.find((p) => typeof value === 'string' && p.toLowerCase() === value.trim().toLowerCase());
}

/** The storeCredentials key of a platform: "Apple" -> "apple". */
export function credentialsKey(platform: StorePlatform): CredentialStore {
  return platform.toLowerCase() as CredentialStore;
}

interface KeyDoc {
  required: boolean;
  description: string;
}

const SANDBOX_KEYS = {
  environment: { required: false, description: '"Sandbox" lets sandbox/test purchases unlock the app; "Production" (default) refuses them (sandbox_not_allowed).' },
  allowSandbox: { required: false, description: 'true does the same as environment "Sandbox".' },
} as const satisfies Record<string, KeyDoc>;

/** The storeCredentials keys the verifiers read, per store. */
export const CREDENTIAL_KEYS = {
  apple: {
    bundleId: { required: true, description: "The app's bundle id; a transaction or receipt of another bundle is refused (wrong_app)." },
    issuerId: {
      required: false,
      description:
        'Issuer id of the App Store Connect In-App Purchase key. With keyId and privateKey it enables App Store Server API look-ups: refunds and renewals after the device signed its transaction, and restore by original_transaction_id.',
    },
    keyId: { required: false, description: 'Key id of that In-App Purchase key.' },
    privateKey: { required: false, description: 'That key (.p8 contents, PEM; "\\n" escapes accepted).' },
    appAppleId: { required: false, description: "The app's numeric Apple id; production App Store Server Notifications are checked against it (required to receive them)." },
    sharedSecret: { required: false, description: 'App-specific shared secret, sent to verifyReceipt for legacy base64 app receipts.' },
    ...SANDBOX_KEYS,
  },
  google: {
    packageName: { required: true, description: "The app's package name; a token of another package is refused (wrong_app)." },
    clientEmail: { required: true, description: "Service account e-mail (client_email of its JSON key), granted the app's financial data in Play Console." },
    privateKey: { required: true, description: 'Service account private key (private_key of its JSON key, PEM; "\\n" escapes accepted).' },
    privateKeyId: { required: false, description: 'private_key_id of the JSON key, sent as the assertion kid.' },
    tokenUri: { required: false, description: 'token_uri of the JSON key (default https://oauth2.googleapis.com/token).' },
    pushAudience: {
      required: false,
      description: "Real-time developer notifications: the audience set on the Pub/Sub push subscription's authentication (required to receive them).",
    },
    pushServiceAccount: {
      required: false,
      description: 'Real-time developer notifications: the service account the push subscription authenticates as (required to receive them).',
    },
    ...SANDBOX_KEYS,
  },
  amazon: {
    sharedSecret: {
      required: true,
      description:
        "The developer account's shared secret (Amazon Developer Console, Shared Key page). Amazon's answer names no app, so a receipt of another app of the same account shows as wrong_product.",
    },
    snsTopicArn: { required: false, description: 'Real-time Notifications: the ARN of the SNS topic Amazon publishes them to (required to receive them).' },
    appPackageName: { required: false, description: "Real-time Notifications: the app's package name; a notification for another app is refused." },
    ...SANDBOX_KEYS,
  },
  roku: {
    apiKey: { required: true, description: 'Roku Pay partner API key (Developer Dashboard, Web API settings).' },
    channelId: {
      required: false,
      description: "The app's Roku channel id; when set, a transaction of another channel is refused (wrong_app). Required to receive push notifications.",
    },
  },
} as const satisfies Record<CredentialStore, Record<string, KeyDoc>>;

/** What receipt_data (and original_transaction_id on restore) carry for each store. */
export const RECEIPT_DATA = {
  Apple:
    'StoreKit 2: the signedTransactionInfo JWS (Transaction.jwsRepresentation); legacy StoreKit 1: the base64 app receipt. Restore: original transaction ids (needs issuerId/keyId/privateKey).',
  Google:
    'The purchase token (Purchase.getPurchaseToken()), or the Purchase original JSON holding purchaseToken. product_id is required for one-time products. Restore: purchase tokens.',
  Amazon: 'JSON {"userId": UserData.getUserId(), "receiptId": Receipt.getReceiptId()}, or "userId:receiptId". Restore: the same pair.',
  Roku: 'The transaction id (purchaseId from the ChannelStore order). Restore: transaction ids.',
} as const satisfies Record<StorePlatform, string>;

/** The app's sandbox policy from its credentials (keys documented in CREDENTIAL_KEYS). */
export function sandboxAllowed(credentials: StoreCredentials): boolean {
  const flag = credentials.allowSandbox;
  return flag === true || flag === 'true' || (typeof credentials.environment === 'string' && /^sandbox$/i.test(credentials.environment));
}

export interface StoreVerifierOptions {
  /** Applies to every store unless its own options say otherwise. */
  timeoutMs?: number;
  apple?: Partial<AppleOptions>;
  google?: GoogleOptions;
  amazon?: AmazonOptions;
  roku?: RokuOptions;
}

export type StoreVerifiers = (platform: StorePlatform) => StoreVerifier;

/** One verifier per store, made once, so Google's access token cache is shared across calls. */
export function createStoreVerifiers(options: StoreVerifierOptions = {}): StoreVerifiers {
  const timeoutMs = options.timeoutMs;
  const verifiers: Record<StorePlatform, StoreVerifier> = {
    Apple: appleVerifier({ timeoutMs, rootCertificates: [], ...options.apple }),
    Google: googleVerifier({ timeoutMs, ...options.google }),
    Amazon: amazonVerifier({ timeoutMs, ...options.amazon }),
    Roku: rokuVerifier({ timeoutMs, ...options.roku }),
  };
  return (platform) => verifiers[platform];
}

/** The verifier for one store; prefer createStoreVerifiers when verifying more than once. */
export function verifierFor(platform: StorePlatform, options: StoreVerifierOptions = {}): StoreVerifier {
  return createStoreVerifiers(options)(platform);
}
