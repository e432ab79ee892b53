/**
 * The processes a profiled run samples: the two on the token path, identity (UserInfo's user), and the reference. The other
 * services are left alone (a sampling profiler costs even an idle process a few % of a core);
 * the per-process CPU figures of every run show that they stay idle.
 */
export const PROFILED_SERVICES = ['gateway', 'oauth', 'identity'];
export const REFERENCE_SERVER = 'oidc-provider';
