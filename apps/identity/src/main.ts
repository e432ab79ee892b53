import { runServiceMain } from '@authz/shared/service';
import { buildIdentityApp } from './app.js';
import { loadIdentityEnv } from './config/env.js';

await runServiceMain({ loadEnv: () => loadIdentityEnv(), build: buildIdentityApp });
