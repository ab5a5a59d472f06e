// Apple's root certificates are supplied by the operator (downloaded once from Apple's PKI page),
// never bundled or fetched at run time: APPLE_ROOT_CERTIFICATES lists their files.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { delimiter } from 'node:path';

export const APPLE_ROOT_CERTIFICATES_ENV = 'APPLE_ROOT_CERTIFICATES';

/**
 * Reads APPLE_ROOT_CERTIFICATES: file paths separated by commas (or the OS path delimiter), each
 * a DER certificate (AppleRootCA-G3.cer as Apple ships it) or PEM holding one or more. Returns
 * DER buffers for SignedDataVerifier; throws naming the file when one cannot be read, because a
 * bad trust store must stop the service at start, not refuse purchases later.
 */
export function loadAppleRootCertificates(env: NodeJS.ProcessEnv = process.env): Buffer[] {
  const list = env[APPLE_ROOT_CERTIFICATES_ENV]?.trim();
  if (!list) return [];
  return list
    .split(new RegExp(`[,${delimiter}]`))
    .map((path) => path.trim())
    .filter(Boolean)
    .flatMap((path) => {
      try {
        return certificatesIn(readFileSync(path));
      } catch (error) {
        throw new Error(`${APPLE_ROOT_CERTIFICATES_ENV}: cannot use ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
}

export function certificatesIn(file: Buffer): Buffer[] {
  const text = file.toString('latin1');
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  const ders = blocks ? blocks.map((block) => new X509Certificate(block).raw) : [new X509Certificate(file).raw];
  if (ders.length === 0) throw new Error('no certificate found');
  return ders;
}
