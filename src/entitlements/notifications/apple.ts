// App Store Server Notifications V2: the body is {"signedPayload": JWS}. The JWS and the signed
// transaction and renewal info inside it are verified with Apple's SignedDataVerifier against the
// configured roots, the app's bundle id, its Apple id (production) and the environment, before
// anything is read. The inbox keeps the decoded payload: Apple signed it, so applying it needs
// no further question to the store.
import { appleLibrary } from '../stores/apple-library.ts';
import { decodeSegment } from '../stores/jwt.ts';
import { credential } from '../stores/http.ts';
import { eventDate, isRefusal, jsonBody, refuse, type InboundRequest, type NotificationRefusal, type NotifiedApp, type Received } from './types.ts';

export async function receiveApple(request: InboundRequest, target: NotifiedApp, roots: readonly Buffer[]): Promise<Received | NotificationRefusal> {
  const body = jsonBody(request.body);
  if (isRefusal(body)) return body;
  const signedPayload = body.json.signedPayload;
  if (typeof signedPayload !== 'string') return refuse('malformed', 'signedPayload is missing');
  const bundleId = credential(target.credentials, 'bundleId');
  if (!bundleId) return refuse('not_configured', 'storeCredentials.apple lacks bundleId');
  if (roots.length === 0) return refuse('not_configured', 'Apple root certificates are not configured (APPLE_ROOT_CERTIFICATES)');
  // The environment picks the verifier; the verifier then checks it against the signed payload.
  const claimed = decodeSegment(signedPayload, 1);
  const environment = String((claimed?.data as Record<string, unknown> | undefined)?.environment ?? (claimed?.summary as Record<string, unknown> | undefined)?.environment ?? '');
  if (environment !== 'Production' && environment !== 'Sandbox') return refuse('invalid_signature', `environment ${JSON.stringify(environment)} is not an App Store environment`);
  const appAppleId = Number(credential(target.credentials, 'appAppleId') ?? NaN);
  if (environment === 'Production' && !Number.isSafeInteger(appAppleId)) {
    return refuse('not_configured', 'storeCredentials.apple lacks appAppleId, which production notifications are checked against');
  }
  const { Environment, SignedDataVerifier, VerificationException, VerificationStatus } = await appleLibrary();
  const verifier = new SignedDataVerifier(
    [...roots],
    false,
    environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX,
    bundleId,
    Number.isSafeInteger(appAppleId) ? appAppleId : undefined,
  );
  try {
    const decoded = await verifier.verifyAndDecodeNotification(signedPayload);
    const data = decoded.data;
    const transaction = data?.signedTransactionInfo ? await verifier.verifyAndDecodeTransaction(data.signedTransactionInfo) : undefined;
    const renewal = data?.signedRenewalInfo ? await verifier.verifyAndDecodeRenewalInfo(data.signedRenewalInfo) : undefined;
    const type = String(decoded.notificationType ?? 'UNKNOWN');
    const signedAt = eventDate(decoded.signedDate);
    if (!decoded.notificationUUID || !signedAt) return refuse('malformed', 'the notification lacks notificationUUID or signedDate');
    return {
      notifications: [
        {
          notificationId: decoded.notificationUUID,
          type: decoded.subtype ? `${type}/${String(decoded.subtype)}` : type,
          eventAt: signedAt,
          payload: {
            notificationType: type,
            subtype: decoded.subtype ?? null,
            environment: environment === 'Production' ? 'production' : 'sandbox',
            status: data?.status ?? null,
            transaction: transaction ?? null,
            renewal: renewal ?? null,
          },
        },
      ],
    };
  } catch (error) {
    const status = error instanceof VerificationException ? error.status : undefined;
    if (status === VerificationStatus.INVALID_APP_IDENTIFIER) return refuse('wrong_app', `the notification is not for bundle ${bundleId}`);
    return refuse('invalid_signature', `signature or certificate chain rejected (${status === undefined ? 'malformed' : VerificationStatus[status]})`);
  }
}
