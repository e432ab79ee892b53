import type { SubmitResponseRequest } from '@authz/proto/walletbridge/v1/walletbridge';
import { InvalidRequestError } from '@authz/shared/errors';
import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';
import { requireWallet, type Registry } from '../registry.js';
import { CREDENTIAL_QUERY_ID } from './dcql-query.js';
import { isIdentifierShaped, randomIdentifier, responseCodeHash, STATUS } from './presentation-request.js';
import type { WalletAnswer } from './presentation-request-store.js';

type Deps = Pick<Registry, 'requests' | 'wallet' | 'secretHashKey'>;

/** RFC 6749 section 4.1.2.1 error codes are printable ASCII. */
const ERROR_CODE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

/**
 * interface.md 4.9 POST /oid4vp/response (OID4VP 1.0 section 8.2, direct_post): structural parsing and
 * correlation only. The request is consumed here, atomically, so a replayed response finds
 * nothing; nothing is verified and nobody is signed in until the outcome is read and the
 * starting browser confirms it (docs/wallet.md #16). Answers the redirect_uri with a fresh
 * response code (section 8.2, docs/wallet.md #18), kept only as its keyed hash.
 */
export async function submitResponse(deps: Deps, response: SubmitResponseRequest): Promise<string> {
  const config = requireWallet(deps);
  const state = response.state ?? '';
  if (!isIdentifierShaped(state)) throw new InvalidRequestError({ message: 'state is missing or malformed' });
  const responseCode = randomIdentifier();
  const answer = {
    ...parseAnswer(response),
    responseCodeHash: responseCodeHash(deps.secretHashKey, responseCode),
  };
  const answered = await deps.requests.answer(state, answer, new Date());
  if (!answered) throw new InvalidRequestError({ message: 'unknown, used or expired state' });
  const query = new URLSearchParams({ response_code: responseCode });
  return `${config.issuer}${HOSTED_PAGE_PATHS.walletReturn}?${query.toString()}`;
}

// OID4VP 1.0 section 8.1: either a vp_token or an error response (section 8.5), never both.
function parseAnswer(response: SubmitResponseRequest): Omit<WalletAnswer, 'responseCodeHash'> {
  if (response.error !== undefined && response.vpToken === undefined) {
    if (!ERROR_CODE.test(response.error)) throw new InvalidRequestError({ message: 'error is malformed' });
    return { status: STATUS.declined, vpToken: null };
  }
  if (response.vpToken === undefined || response.error !== undefined) {
    throw new InvalidRequestError({ message: 'exactly one of vp_token and error is required' });
  }
  return { status: STATUS.answered, vpToken: parseVpToken(response.vpToken) };
}

/**
 * OID4VP 1.0 section 8.1 with DCQL: a JSON object keyed by the credential query id, holding one
 * SD-JWT VC presentation (issuer JWT, disclosures, key-binding JWT, joined by `~`).
 */
function parseVpToken(raw: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidRequestError({ message: 'vp_token is not JSON' });
  }
  const presentations =
    isPlainObject(parsed) && Object.keys(parsed).length === 1 ? parsed[CREDENTIAL_QUERY_ID] : undefined;
  const [presentation] = Array.isArray(presentations) && presentations.length === 1 ? presentations : [];
  if (
    typeof presentation !== 'string' ||
    !/^[\w-]+\.[\w-]+\.[\w-]+~([\w-]*~)*[\w-]+\.[\w-]+\.[\w-]+$/.test(presentation)
  ) {
    throw new InvalidRequestError({ message: 'vp_token does not hold one SD-JWT VC presentation' });
  }
  return presentation;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
