import { beforeAll } from 'vitest';
import {
  authorizedTokens,
  newAppClient,
  newUser,
  useCodeFlow,
  type AppClient,
  type CodeFlowContext,
  type TestUser,
} from '../support/code-flow.js';
import { describedError, registerAgent } from '../support/exchange-helpers.js';

// What the agent-exchange*.test.ts files share (docs/decisions.md #12, interface.md 2.5, 4.3, 5,
// docs/agents.md): a user's token from another client's code flow, narrowed for an agent.
export const SCOPES = 'openid profile email offline_access calendar:read calendar:write';
export const API = 'https://api.example/calendar';
export const FILES = 'https://api.example/files';
export const NOT_ACTIVE = describedError('invalid_request', 'The subject token is not active');

export interface AgentScene {
  user: TestUser;
  /** The client whose code flow gave the user's token. */
  web: AppClient;
  /** An agent allowed calendar:read and calendar:write. */
  agent: AppClient;
  /** The user's access token from web's code flow: aud web, every calendar scope. */
  userToken: string;
}

/** The suite of one test file, with SCOPES allowed to every client. */
function useAgentExchangeFlow(): CodeFlowContext {
  return useCodeFlow(
    {},
    { DEFAULT_REALM_ALLOWED_SCOPES: SCOPES, DEFAULT_DYNAMIC_REGISTRATION_SCOPES: SCOPES },
  );
}

/** One test file's suite and its scene; the scene's fields exist from beforeAll on. */
export function useAgentScene(): AgentScene & { flow: CodeFlowContext } {
  const flow = useAgentExchangeFlow();
  const scene = { flow } as AgentScene & { flow: CodeFlowContext };
  beforeAll(async () => {
    Object.assign(scene, await setUpAgentScene(flow));
  });
  return scene;
}

async function setUpAgentScene(flow: CodeFlowContext): Promise<AgentScene> {
  const user = await newUser(flow);
  const web = await newAppClient(flow, { scopes: ['openid', 'email', 'calendar:read', 'calendar:write'] });
  const agent = await registerAgent(flow.suite, { scope: 'calendar:read calendar:write' });
  const tokens = await authorizedTokens(flow, web, user, {
    scope: 'openid email calendar:read calendar:write',
  });
  return { user, web, agent, userToken: tokens.access_token as string };
}
