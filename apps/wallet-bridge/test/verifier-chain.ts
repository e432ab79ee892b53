import { webcrypto } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// @peculiar/x509 (through tsyringe) needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
type KeyPair = webcrypto.CryptoKeyPair;

export interface TestChain {
  root: x509.X509Certificate;
  intermediate: x509.X509Certificate;
  leaf: x509.X509Certificate;
  leafKeyPem: string;
  otherKeyPem: string;
}

/** Root CA -> intermediate CA -> leaf (ECDSA P-256), and a key that is not the leaf's. */
export async function createTestChain(): Promise<TestChain> {
  const keys = async () => (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as KeyPair;
  const [rootKeys, intermediateKeys, leafKeys, otherKeys] = await Promise.all([
    keys(),
    keys(),
    keys(),
    keys(),
  ]);
  const ca = [new x509.BasicConstraintsExtension(true, undefined, true)];
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=Root',
    keys: rootKeys,
    signingAlgorithm: EC,
    extensions: ca,
  });
  const issue = (
    subject: string,
    issuer: x509.X509Certificate,
    publicKey: webcrypto.CryptoKey,
    signer: KeyPair,
  ) =>
    x509.X509CertificateGenerator.create({
      subject,
      issuer: issuer.subject,
      publicKey,
      signingKey: signer.privateKey,
      signingAlgorithm: EC,
      extensions: ca,
    });
  const intermediate = await issue('CN=Intermediate', root, intermediateKeys.publicKey, rootKeys);
  const leaf = await issue('CN=verifier.test', intermediate, leafKeys.publicKey, intermediateKeys);
  return { root, intermediate, leaf, leafKeyPem: await pkcs8(leafKeys), otherKeyPem: await pkcs8(otherKeys) };
}

async function pkcs8(keys: KeyPair): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64')}\n-----END PRIVATE KEY-----\n`;
}

export function writeFiles(dir: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(files).map(([name, content]) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return [name, path];
    }),
  );
}
