// Writes docs/openapi.json from the gateway's routes: `pnpm openapi` (docs/openapi.md). Run it
// after changing a route or its documentation; openapi.test.ts fails until the file matches.
import { writeFileSync } from 'node:fs';
import { DOCUMENT_FILE } from './document-file.js';
import { buildOfflineGateway } from './offline-gateway.js';
import { openApiDocument } from './route.js';

const gateway = await buildOfflineGateway();
try {
  writeFileSync(DOCUMENT_FILE, openApiDocument(gateway.app));
  process.stdout.write('docs/openapi.json written\n');
} finally {
  await gateway.close();
}
