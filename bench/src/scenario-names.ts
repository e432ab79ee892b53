/** The scenarios measured on the suite, in the order they run (BENCH_SCENARIOS picks some). */
export const SCENARIO_NAMES = ['client_credentials', 'introspection', 'jwks', 'discovery'] as const;

export type ScenarioName = (typeof SCENARIO_NAMES)[number];
