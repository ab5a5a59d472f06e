// Amazon SNS message signatures (SignatureVersion 1: SHA1withRSA, 2: SHA256withRSA) over the
// canonical string SNS documents, with the signing certificate fetched only from an SNS host
// over https (or, in tests and staging, from a configured URL prefix) and cached.
import { X509Certificate, verify } from 'node:crypto';
import { callStore, str } from '../stores/http.ts';

const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const SIGNED_KEYS = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
} as const;
export type SnsType = keyof typeof SIGNED_KEYS;
const MAX_CERTS = 32;

export interface SnsOptions {
  /** Unset: https://sns.<region>.amazonaws.com only. Set: URLs starting with it (tests, staging). */
  urlPrefix?: string | undefined;
  timeoutMs: number;
}

export class SnsVerifier {
  private readonly certs = new Map<string, X509Certificate>();

  constructor(private readonly options: SnsOptions) {}

  /** Whether SNS may have sent us to this URL (the certificate, a SubscribeURL). */
  isSnsUrl(text: unknown): text is string {
    if (typeof text !== 'string') return false;
    if (this.options.urlPrefix) return text.startsWith(this.options.urlPrefix);
    try {
      const url = new URL(text);
      return url.protocol === 'https:' && SNS_HOST.test(url.hostname) && url.port === '';
    } catch {
      return false;
    }
  }

  /** The reason the message is not SNS's, or undefined when its signature holds. */
  async check(message: Record<string, unknown>, now: Date): Promise<string | undefined> {
    const type = message.Type as SnsType;
    if (!Object.hasOwn(SIGNED_KEYS, type)) return 'Type is not an SNS message type';
    const algorithm = message.SignatureVersion === '1' ? 'RSA-SHA1' : message.SignatureVersion === '2' ? 'RSA-SHA256' : undefined;
    if (!algorithm) return 'SignatureVersion is not 1 or 2';
    if (typeof message.Signature !== 'string') return 'Signature is missing';
    if (!this.isSnsUrl(message.SigningCertURL)) return 'SigningCertURL is not an SNS certificate URL';
    const cert = await this.certificate(message.SigningCertURL);
    if (!cert) return 'the signing certificate could not be fetched';
    if (new Date(cert.validFrom) > now || new Date(cert.validTo) < now) return 'the signing certificate is not valid now';
    const canonical = SIGNED_KEYS[type]
      .filter((key) => str(message[key]) !== undefined)
      .map((key) => `${key}\n${String(message[key])}\n`)
      .join('');
    const ok = verify(algorithm, Buffer.from(canonical, 'utf8'), cert.publicKey, Buffer.from(message.Signature, 'base64'));
    return ok ? undefined : 'the signature does not match';
  }

  private async certificate(url: string): Promise<X509Certificate | undefined> {
    const cached = this.certs.get(url);
    if (cached) return cached;
    const answer = await callStore(url, {}, this.options.timeoutMs);
    if (!answer.ok || answer.status !== 200) return undefined;
    try {
      const cert = new X509Certificate(answer.text);
      if (this.certs.size >= MAX_CERTS) this.certs.delete(this.certs.keys().next().value!);
      this.certs.set(url, cert);
      return cert;
    } catch {
      return undefined;
    }
  }
}
