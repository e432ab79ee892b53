import { runServiceMain } from '@authz/shared/service';
import { buildOAuthApp } from './app.js';
import { loadOAuthEnv } from './config/env.js';

await runServiceMain({ loadEnv: () => loadOAuthEnv(), build: buildOAuthApp });
