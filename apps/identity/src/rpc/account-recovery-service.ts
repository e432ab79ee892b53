import type { AccountRecoveryService } from '@authz/proto/identity/v1/account_recovery';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { changePassword } from '../recovery/change-password.js';
import { requestEmailChange } from '../recovery/request-email-change.js';
import { requestPasswordReset } from '../recovery/request-password-reset.js';
import { resetPassword } from '../recovery/reset-password.js';
import type { Registry } from '../registry.js';

/** Password reset and change, email change (interface.md 4.10): thin translations (docs/conventions.md #2). */
export function accountRecoveryServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof AccountRecoveryService> {
  return {
    async requestPasswordReset({ email, origin }) {
      await requestPasswordReset(registry, email, origin);
      return {};
    },
    // Both end sessions: relay those ends to oauth at once (docs/identity.md #17).
    async resetPassword({ token, password, origin }) {
      const userId = await resetPassword(registry, { token, password, origin });
      registry.onSessionEnded();
      return { userId };
    },
    async changePassword(request) {
      await changePassword(registry, request);
      registry.onSessionEnded();
      return {};
    },
    async requestEmailChange(request) {
      await requestEmailChange(registry, request);
      return {};
    },
  };
}
