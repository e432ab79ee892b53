import { runServiceMain } from '@authz/shared/service';
import { buildClientsApp } from './app.js';
import { loadClientsEnv } from './config/env.js';

await runServiceMain({ loadEnv: () => loadClientsEnv(), build: buildClientsApp });
