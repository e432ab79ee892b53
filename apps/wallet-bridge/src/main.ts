import { runServiceMain } from '@authz/shared/service';
import { buildWalletBridgeApp } from './app.js';
import { loadWalletBridgeEnv } from './config/env.js';

await runServiceMain({ loadEnv: () => loadWalletBridgeEnv(), build: buildWalletBridgeApp });
