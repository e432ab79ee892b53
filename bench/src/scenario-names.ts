/** The scenarios measured on the suite, in the order they run (BENCH_SCENARIOS picks some). */
export const SCENARIO_NAMES = [
  'client_credentials',
  'client_credentials_dpop',
  'introspection',
  'userinfo',
  'jwks',
  'discovery',
] as const;

/**
 * Run only when BENCH_SCENARIOS names them. replica_restart: the client_credentials load while
 * the launcher restarts every oauth replica one at a time (two replicas at least).
 */
export const OPT_IN_SCENARIOS = ['replica_restart'] as const;

export type ScenarioName = (typeof SCENARIO_NAMES)[number] | (typeof OPT_IN_SCENARIOS)[number];
