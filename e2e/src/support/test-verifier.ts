import { webcrypto } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// @peculiar/x509 (through tsyringe) needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface TestVerifierChain {
  keyFile: string;
  chainFile: string;
  /** DER of each certificate, as x5c carries them (base64). */
  leaf: string;
  intermediate: string;
  root: string;
}

/**
 * A verifier PKI for the tests: root CA -> intermediate CA -> leaf, all ECDSA P-256. Writes
 * the leaf's PKCS#8 key and the chain (leaf, intermediate, root: the root is there so the tests
 * show it is never sent) as docs/contract.md WALLET_VERIFIER_* files in `dir`.
 */
export async function createTestVerifierChain(dir: string): Promise<TestVerifierChain> {
  const keys = async () =>
    (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const [rootKeys, intermediateKeys, leafKeys] = await Promise.all([keys(), keys(), keys()]);
  const ca = [new x509.BasicConstraintsExtension(true, undefined, true)];
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=Test Wallet Verifier Root',
    keys: rootKeys,
    signingAlgorithm: EC,
    extensions: ca,
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    subject: 'CN=Test Wallet Verifier Intermediate',
    issuer: root.subject,
    publicKey: intermediateKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: EC,
    extensions: ca,
  });
  const leaf = await x509.X509CertificateGenerator.create({
    subject: 'CN=verifier.test',
    issuer: intermediate.subject,
    publicKey: leafKeys.publicKey,
    signingKey: intermediateKeys.privateKey,
    signingAlgorithm: EC,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'verifier.test' }])],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leafKeys.privateKey));
  const keyFile = join(dir, 'verifier-key.pem');
  const chainFile = join(dir, 'verifier-chain.pem');
  writeFileSync(keyFile, pem('PRIVATE KEY', pkcs8));
  writeFileSync(
    chainFile,
    [leaf, intermediate, root].map((certificate) => certificate.toString('pem')).join('\n'),
  );
  const der = (certificate: x509.X509Certificate) => Buffer.from(certificate.rawData).toString('base64');
  return { keyFile, chainFile, leaf: der(leaf), intermediate: der(intermediate), root: der(root) };
}

function pem(label: string, der: Buffer): string {
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}
