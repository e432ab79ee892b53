import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** One upstream OpenID Provider the operator configured (docs/federation.md #2). */
export interface UpstreamProvider {
  id: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  trustEmail: boolean;
  createAccounts: boolean;
}

export interface LoadedUpstreamProviders {
  providers: UpstreamProvider[];
  /** Every problem found, each naming its entry and field; nothing secret. */
  problems: string[];
}

const DEFAULT_SCOPES = 'openid email profile';
/** An id becomes a path segment and the provider type `oidc_<id>`: keep it plain. */
const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
const KNOWN_FIELDS = new Set([
  'id',
  'displayName',
  'issuer',
  'clientId',
  'clientSecret',
  'clientSecretFile',
  'scopes',
  'trustEmail',
  'createAccounts',
]);

/**
 * Reads UPSTREAM_IDPS_FILE (docs/federation.md #2, #3). A bad entry is left out whole, never
 * half-configured, and a bad file yields no provider at all; every problem is named. Start-up
 * goes on either way, as with the wallet's trusted-issuers file: password sign-in must not
 * depend on an upstream's configuration.
 */
export function loadUpstreamProviders(path: string | undefined): LoadedUpstreamProviders {
  if (path === undefined) return { providers: [], problems: [] };
  let entries: unknown;
  try {
    entries = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read';
    return { providers: [], problems: [`UPSTREAM_IDPS_FILE ${reason}`] };
  }
  if (!Array.isArray(entries)) {
    return { providers: [], problems: ['UPSTREAM_IDPS_FILE must hold a JSON list'] };
  }
  const problems: string[] = [];
  const providers: UpstreamProvider[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const checked = checkEntry(entry, dirname(resolve(path)));
    const name = `entry ${index}${typeof checked.id === 'string' ? ` (${checked.id})` : ''}`;
    if (checked.provider && seen.has(checked.provider.id)) checked.problems.push('id is not unique');
    if (checked.problems.length > 0) {
      problems.push(...checked.problems.map((problem) => `${name}: ${problem}`));
      return;
    }
    seen.add(checked.provider!.id);
    providers.push(checked.provider!);
  });
  return { providers, problems };
}

interface CheckedEntry {
  id?: unknown;
  provider?: UpstreamProvider;
  problems: string[];
}

function checkEntry(entry: unknown, baseDirectory: string): CheckedEntry {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { problems: ['must be an object'] };
  }
  const fields = entry as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of Object.keys(fields)) {
    if (!KNOWN_FIELDS.has(field)) problems.push(`${field} is not a known field`);
  }
  const text = (field: string): string | undefined => {
    const value = fields[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    problems.push(`${field} is required (a non-empty string)`);
    return undefined;
  };
  const flag = (field: string): boolean => {
    const value = fields[field] ?? false;
    if (typeof value === 'boolean') return value;
    problems.push(`${field} must be true or false`);
    return false;
  };
  const id = text('id');
  if (id !== undefined && !PROVIDER_ID.test(id)) {
    problems.push('id must be 1 to 32 lowercase letters, digits or hyphens, starting with a letter or digit');
  }
  const displayName = text('displayName');
  const issuer = text('issuer');
  if (issuer !== undefined) problems.push(...issuerProblems(issuer));
  const clientId = text('clientId');
  const clientSecret = secretOf(fields, baseDirectory, problems);
  const scopes = scopesOf(fields.scopes, problems);
  const trustEmail = flag('trustEmail');
  const createAccounts = flag('createAccounts');
  if (problems.length > 0) return { id: fields.id, problems };
  return {
    id,
    problems,
    provider: {
      id: id!,
      displayName: displayName!,
      issuer: issuer!,
      clientId: clientId!,
      clientSecret: clientSecret!,
      scopes,
      trustEmail,
      createAccounts,
    },
  };
}

// OpenID Connect Discovery 1.0 section 3: the issuer is an https URL without query or fragment.
// Loopback http is let through here; the outbound policy refuses it unless the test flag is on.
function issuerProblems(issuer: string): string[] {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return ['issuer must be a URL'];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return ['issuer must be an https URL'];
  if (url.search !== '' || url.hash !== '') return ['issuer must have no query or fragment'];
  return [];
}

function secretOf(fields: Record<string, unknown>, baseDirectory: string, problems: string[]) {
  const inline = fields.clientSecret;
  const file = fields.clientSecretFile;
  if ((inline === undefined) === (file === undefined)) {
    problems.push('exactly one of clientSecret and clientSecretFile is required');
    return undefined;
  }
  if (inline !== undefined) {
    if (typeof inline === 'string' && inline !== '') return inline;
    problems.push('clientSecret must be a non-empty string');
    return undefined;
  }
  if (typeof file !== 'string' || file === '') {
    problems.push('clientSecretFile must be a non-empty string');
    return undefined;
  }
  try {
    // A relative path is read beside the providers file, as a mounted secret usually is.
    const secret = readFileSync(resolve(baseDirectory, file), 'utf8').trim();
    if (secret !== '') return secret;
    problems.push('clientSecretFile is empty');
  } catch {
    problems.push('clientSecretFile cannot be read');
  }
  return undefined;
}

function scopesOf(value: unknown, problems: string[]): string {
  if (value === undefined) return DEFAULT_SCOPES;
  if (typeof value !== 'string') {
    problems.push('scopes must be a space-separated string');
    return DEFAULT_SCOPES;
  }
  const scopes = value.split(' ').filter((scope) => scope !== '');
  // OIDC Core 1.0 section 3.1.2.1: without `openid` it is not an OpenID Connect request.
  if (!scopes.includes('openid')) problems.push('scopes must include openid');
  return scopes.join(' ');
}
