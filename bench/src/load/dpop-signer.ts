import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';

/**
 * RFC 9449 section 4.2 proofs for the DPoP scenario, signed synchronously (Ed25519 through
 * node:crypto) because autocannon builds each request synchronously: every request needs a
 * proof of its own (the server refuses a replayed jti). The server's nonce (section 8) is kept
 * from the answers that carry it.
 */
export class DpopSigner {
  private readonly privateKey: KeyObject;
  private readonly header: string;
  nonce = '';

  constructor(
    private readonly method: string,
    private readonly url: string,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.header = encode({ typ: 'dpop+jwt', alg: 'EdDSA', jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x } });
  }

  proof(): string {
    const payload = encode({
      jti: randomUUID(),
      htm: this.method,
      htu: this.url,
      iat: Math.floor(Date.now() / 1000),
      ...(this.nonce ? { nonce: this.nonce } : {}),
    });
    const input = `${this.header}.${payload}`;
    return `${input}.${sign(null, Buffer.from(input), this.privateKey).toString('base64url')}`;
  }

  /** Learns the nonce from a DPoP-Nonce header, when the answer has one. */
  observe(nonce: string | null | undefined): void {
    if (nonce) this.nonce = nonce;
  }
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
