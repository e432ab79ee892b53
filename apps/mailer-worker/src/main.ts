import { runServiceMain } from '@authz/shared/service';
import { buildMailerWorkerApp } from './app.js';
import { loadMailerWorkerEnv } from './config/env.js';

await runServiceMain({ loadEnv: () => loadMailerWorkerEnv(), build: buildMailerWorkerApp });
