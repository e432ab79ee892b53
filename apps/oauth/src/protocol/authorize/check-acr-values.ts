import type { TokenParameters } from '../token/token-parameters.js';
import { ACR_VALUES_SUPPORTED } from '@authz/shared/protocol';

/**
 * OIDC Core 3.1.2.1 acr_values: space-separated classes in order of preference. Unknown
 * values are ignored (the parameter is voluntary); of the known ones the weakest is the
 * requirement, since the client accepts any of them. The requirement is then essential: a
 * session below it must step up (docs/strong-authentication.md #14). Undefined when nothing
 * known was asked for.
 */
export function checkAcrValues(values: TokenParameters): string | undefined {
  const asked = (values.get('acr_values') ?? '').split(' ').filter((value) => value !== '');
  return ACR_VALUES_SUPPORTED.find((acr) => asked.includes(acr));
}
