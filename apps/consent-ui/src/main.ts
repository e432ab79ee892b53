import { runServiceMain } from '@authz/shared/service';
import { buildConsentUiApp } from './app.js';
import { loadConsentUiEnv } from './config/env.js';

await runServiceMain({ loadEnv: () => loadConsentUiEnv(), build: buildConsentUiApp });
