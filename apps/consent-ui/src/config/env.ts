import { envIssuer, loadEnvParts, serviceRuntimeSchema, serviceUrlsSchema } from '@authz/shared/env';
import { z } from 'zod';

/** The consent-ui service's environment, validated once at start-up (CONTRACT.md). */
const settingsSchema = z.object({
  JWT_ISSUER: envIssuer().default('http://localhost:3000'),
});

export type ConsentUiEnv = ReturnType<typeof loadConsentUiEnv>;

export function loadConsentUiEnv(source: NodeJS.ProcessEnv = process.env) {
  const { runtime, settings, services } = loadEnvParts(
    {
      runtime: serviceRuntimeSchema('consent-ui'),
      settings: settingsSchema,
      services: serviceUrlsSchema(['identity', 'oauth', 'wallet-bridge'] as const),
    },
    source,
  );
  return {
    runtime,
    issuer: settings.JWT_ISSUER,
    services,
  };
}
