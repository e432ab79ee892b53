import type { Logger } from '@authz/shared/logger';
import { createServiceApp, type ServiceApp } from '@authz/shared/service';
import type { ConsentUiEnv } from './config/env.js';

export interface ConsentUiDeps {
  env: ConsentUiEnv;
  logger: Logger;
}

/** Builds the consent-ui service: server-rendered hosted pages (login, consent, resume, wallet screens); stateless. */
export async function buildConsentUiApp({ logger }: ConsentUiDeps): Promise<ServiceApp> {
  return createServiceApp('consent-ui', logger, {});
}

export { loadConsentUiEnv, type ConsentUiEnv } from './config/env.js';
