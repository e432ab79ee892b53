import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The verifier's signing identity (docs/contract.md WALLET_VERIFIER_*): the leaf certificate's key,
 * the x5c chain sent to wallets and the OID4VP 1.0 `x509_hash` client identifier.
 */
export interface VerifierProfile {
  clientId: string;
  /** Leaf first, then intermediates; base64 DER (RFC 7515 section 4.1.6). Never the trust anchor. */
  x5c: string[];
  alg: string;
  privateKey: KeyObject;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Reads and checks the profile; throws an Error naming the problem, never the key. */
export function loadVerifierProfile(keyFile: string, chainFile: string): VerifierProfile {
  const privateKey = createPrivateKey(readFileSync(keyFile, 'utf8'));
  const certificates = (readFileSync(chainFile, 'utf8').match(PEM_CERTIFICATE) ?? []).map(
    (pem) => new X509Certificate(pem),
  );
  const leaf = certificates[0];
  if (!leaf) throw new Error(`${chainFile} holds no certificate`);
  checkKeyMatchesLeaf(privateKey, leaf);
  checkChainOrder(certificates);
  checkValidNow(leaf);
  return {
    clientId: x509HashClientId(leaf),
    // A self-signed certificate is a trust anchor: the wallet must already hold it.
    x5c: certificates
      .filter((certificate) => !isSelfSigned(certificate))
      .map((c) => c.raw.toString('base64')),
    alg: signingAlgorithm(privateKey),
    privateKey,
  };
}

/** OID4VP 1.0 section 5.9.3, docs/decisions.md #25: `x509_hash:` + base64url SHA-256 of the leaf DER. */
export function x509HashClientId(leaf: X509Certificate): string {
  return `x509_hash:${createHash('sha256').update(leaf.raw).digest('base64url')}`;
}

function checkKeyMatchesLeaf(privateKey: KeyObject, leaf: X509Certificate): void {
  const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });
  if (!spki(createPublicKey(privateKey)).equals(spki(leaf.publicKey))) {
    throw new Error('the verifier key is not the leaf certificate key');
  }
}

function checkChainOrder(certificates: X509Certificate[]): void {
  for (let index = 0; index + 1 < certificates.length; index += 1) {
    const [child, parent] = [certificates[index]!, certificates[index + 1]!];
    if (!child.checkIssued(parent) || !child.verify(parent.publicKey)) {
      throw new Error(`certificate ${index} of the chain is not issued by certificate ${index + 1}`);
    }
  }
}

function checkValidNow(leaf: X509Certificate): void {
  const now = Date.now();
  if (Date.parse(leaf.validFrom) > now || Date.parse(leaf.validTo) < now) {
    throw new Error('the verifier leaf certificate is not valid now');
  }
}

function isSelfSigned(certificate: X509Certificate): boolean {
  return certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey);
}

/** The JWS alg of the key (RFC 7518 section 3.1; RFC 8037 for Ed25519). */
function signingAlgorithm(key: KeyObject): string {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType === 'ec' && curve === 'prime256v1') return 'ES256';
  if (key.asymmetricKeyType === 'ec' && curve === 'secp384r1') return 'ES384';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'rsa') return 'PS256';
  throw new Error(`unsupported verifier key type ${key.asymmetricKeyType ?? 'unknown'}`);
}
