import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';

/**
 * How long proofs signed ahead are handed out: the server accepts an `iat` up to 60 s old
 * (docs/par-and-dpop.md #6); 45 s leaves room for the request's own time. A longer window
 * signs the rest as it goes.
 */
export const SIGNED_AHEAD_LIFETIME_MS = 45_000;

/**
 * RFC 9449 section 4.2 proofs for the DPoP scenario, signed synchronously (Ed25519 through
 * node:crypto) because autocannon builds each request synchronously: every request needs a
 * proof of its own (the server refuses a replayed jti). The server's nonce (section 8) is kept
 * from the answers that carry it.
 *
 * Proofs can be signed ahead of the measured window (`signAhead`): a DPoP client signs on its
 * own machine, so the load generator's signatures should not take the cores the servers are
 * measured on (docs/performance.md "DPoP"). A proof signed ahead stays acceptable for the
 * window: its iat is within the server's 60 s (docs/par-and-dpop.md #6) for the first 45 s,
 * and its nonce is this or the previous nonce window's (#9). When the stock runs out or grows
 * old, proofs are signed as needed.
 */
export class DpopSigner {
  private readonly privateKey: KeyObject;
  private readonly header: string;
  private ahead: string[] = [];
  private signedAheadAt = 0;
  /** Proofs handed out since the last `signAhead`, and how many of them were signed then. */
  private handedOut = 0;
  private handedOutAhead = 0;
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
    this.handedOut += 1;
    if (Date.now() - this.signedAheadAt > SIGNED_AHEAD_LIFETIME_MS) this.ahead = [];
    const signed = this.ahead.pop();
    if (signed === undefined) return this.signed();
    this.handedOutAhead += 1;
    return signed;
  }

  /** Signs `count` proofs now, with the nonce known now; they are handed out before any new one. */
  signAhead(count: number): void {
    this.signedAheadAt = Date.now();
    this.ahead = Array.from({ length: count }, () => this.signed());
    this.handedOut = 0;
    this.handedOutAhead = 0;
  }

  /** What `proof()` handed out since the last `signAhead`: `{ total, signedAhead }`. */
  usage(): { total: number; signedAhead: number } {
    return { total: this.handedOut, signedAhead: this.handedOutAhead };
  }

  /** Learns the nonce from a DPoP-Nonce header, when the answer has one. */
  observe(nonce: string | null | undefined): void {
    if (nonce) this.nonce = nonce;
  }

  private signed(): string {
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
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
