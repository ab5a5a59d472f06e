// The store verifiers of a running service, from its configuration: real store servers unless
// a STORE_*_URL points elsewhere (tests, staging), Apple's roots read once at start.
import type { Config } from '../config.ts';
import { AMAZON_URLS } from './stores/amazon.ts';
import { APPLE_URLS } from './stores/apple.ts';
import { createStoreVerifiers, loadAppleRootCertificates, type StoreVerifierOptions, type StoreVerifiers } from './stores/index.ts';

type Pair = { production: string; sandbox: string };

/** Either URL overridden alone keeps the other store default. */
const pair = (defaults: Pair, production: string | undefined, sandbox: string | undefined): Pair => ({
  production: production ?? defaults.production,
  sandbox: sandbox ?? defaults.sandbox,
});

export function storeVerifierOptions(config: Config): StoreVerifierOptions {
  return {
    timeoutMs: config.STORE_TIMEOUT_MS,
    apple: {
      // Throws naming the file when a listed certificate cannot be read: the service must not start.
      rootCertificates: loadAppleRootCertificates({ APPLE_ROOT_CERTIFICATES: config.APPLE_ROOT_CERTIFICATES }),
      apiUrls: pair(APPLE_URLS.api, config.STORE_APPLE_API_URL, config.STORE_APPLE_SANDBOX_API_URL),
      verifyReceiptUrls: pair(APPLE_URLS.verifyReceipt, config.STORE_APPLE_VERIFY_RECEIPT_URL, config.STORE_APPLE_VERIFY_RECEIPT_SANDBOX_URL),
    },
    google: { apiBaseUrl: config.STORE_GOOGLE_API_URL, tokenUri: config.STORE_GOOGLE_TOKEN_URL },
    amazon: { urls: pair(AMAZON_URLS, config.STORE_AMAZON_URL, config.STORE_AMAZON_SANDBOX_URL) },
    roku: { baseUrl: config.STORE_ROKU_URL },
  };
}

export function storeVerifiersFrom(config: Config): StoreVerifiers {
  return createStoreVerifiers(storeVerifierOptions(config));
}
