import { InvalidRequestError } from '@authz/shared/errors';
import type { TokenParameters } from '../token/token-parameters.js';
import type { Prompt } from './authorization-request.js';

const SUPPORTED: readonly string[] = ['none', 'login', 'consent'] satisfies Prompt[];

/**
 * OIDC Core 3.1.2.1: prompt is a space-delimited list; `none` with any other value is an
 * error. select_account and unknown values are refused (docs/authorization.md #6).
 */
export function checkPrompt(values: TokenParameters): Prompt[] {
  const prompt = [...new Set((values.get('prompt') ?? '').split(' ').filter((value) => value !== ''))];
  if (prompt.includes('select_account')) {
    throw new InvalidRequestError({
      message: 'prompt=select_account is not supported: a browser session holds one account',
    });
  }
  const unsupported = prompt.find((value) => !SUPPORTED.includes(value));
  if (unsupported !== undefined) {
    throw new InvalidRequestError({ message: `Unsupported prompt value ${unsupported}` });
  }
  if (prompt.includes('none') && prompt.length > 1) {
    throw new InvalidRequestError({ message: 'prompt=none cannot be combined with other values' });
  }
  return prompt as Prompt[];
}
