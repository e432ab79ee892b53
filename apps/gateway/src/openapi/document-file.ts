import { fileURLToPath } from 'node:url';

/** docs/openapi.json, the checked-in document: four levels above src/openapi and dist/openapi. */
export const DOCUMENT_FILE = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
