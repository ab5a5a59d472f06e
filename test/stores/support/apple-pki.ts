// A throwaway App Store-like certificate chain (root CA -> intermediate -> leaf, EC P-256) made
// with the openssl CLI, because node:crypto cannot issue certificates. The intermediate and leaf
// carry the marker OIDs Apple's SignedDataVerifier looks for. `openssl ca` is used rather than
// `x509 -req` so validity dates are fixed and tests can use fixed "now" values.
import { execFileSync } from 'node:child_process';
import { createPrivateKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestChain {
  rootDer: Buffer;
  /** x5c order: leaf, intermediate, root (base64 DER). */
  x5c: string[];
  leafKey: KeyObject;
}

const CONFIG = (dir: string) => `
[ ca ]
default_ca = test_ca
[ test_ca ]
dir = ${dir}
database = ${dir}/index.txt
new_certs_dir = ${dir}/certs
serial = ${dir}/serial
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none
[ policy_any ]
commonName = supplied
[ req ]
distinguished_name = dn
[ dn ]
[ v3_root ]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ v3_intermediate ]
basicConstraints = critical, CA:true, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.2.1 = ASN1:NULL
[ v3_leaf ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.11.1 = ASN1:NULL
`;

/** Valid from 2020 to 2040 (UTC), so tests can sign at fixed dates in between. */
export function makeTestChain(name = 'Test'): TestChain {
  const dir = mkdtempSync(join(tmpdir(), 'apple-pki-'));
  try {
    mkdirSync(join(dir, 'certs'));
    writeFileSync(join(dir, 'index.txt'), '');
    writeFileSync(join(dir, 'serial'), '1000\n');
    const config = join(dir, 'ca.cnf');
    writeFileSync(config, CONFIG(dir));
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const dates = ['-startdate', '20200101000000Z', '-enddate', '20400101000000Z'];
    for (const [cert, cn] of [
      ['root', `${name} Root CA`],
      ['int', `${name} Intermediate`],
      ['leaf', `${name} Signing`],
    ] as const) {
      run('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${cert}.key`);
      run('req', '-new', '-config', config, '-key', `${cert}.key`, '-subj', `/CN=${cn}`, '-out', `${cert}.csr`);
    }
    run('ca', '-batch', '-notext', '-config', config, '-selfsign', '-keyfile', 'root.key', '-in', 'root.csr', '-out', 'root.pem', '-extensions', 'v3_root', ...dates);
    run('ca', '-batch', '-notext', '-config', config, '-cert', 'root.pem', '-keyfile', 'root.key', '-in', 'int.csr', '-out', 'int.pem', '-extensions', 'v3_intermediate', ...dates);
    run('ca', '-batch', '-notext', '-config', config, '-cert', 'int.pem', '-keyfile', 'int.key', '-in', 'leaf.csr', '-out', 'leaf.pem', '-extensions', 'v3_leaf', ...dates);
    const der = (file: string) => new X509Certificate(readFileSync(join(dir, file))).raw;
    return {
      rootDer: der('root.pem'),
      x5c: ['leaf.pem', 'int.pem', 'root.pem'].map((file) => der(file).toString('base64')),
      leafKey: createPrivateKey(readFileSync(join(dir, 'leaf.key'))),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Signs a payload the way the App Store does: ES256 with the chain in the x5c header. */
export function signAppleJws(chain: TestChain, payload: Record<string, unknown>): string {
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', x5c: chain.x5c })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = sign('sha256', Buffer.from(`${header}.${body}`), { key: chain.leafKey, dsaEncoding: 'ieee-p1363' });
  return `${header}.${body}.${signature.toString('base64url')}`;
}
