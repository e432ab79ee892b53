import type { Route } from '../route.js';
import { FEDERATION_PAGE_PATHS } from './federation-links.js';
import { finishUpstreamFlow, startUpstreamLink, startUpstreamSignIn } from './federation-pages.js';
import { submitUnlink } from './federation-unlink.js';

/** interface.md 4.14 pages. The callback is listed first: it is not a provider id. */
export const FEDERATION_ROUTES: readonly Route[] = [
  { path: FEDERATION_PAGE_PATHS.callback, methods: { GET: finishUpstreamFlow } },
  {
    path: FEDERATION_PAGE_PATHS.federation,
    takesSegment: true,
    segmentSuffix: '/start',
    methods: { GET: startUpstreamSignIn, POST: startUpstreamLink },
  },
  { path: FEDERATION_PAGE_PATHS.unlink, methods: { POST: submitUnlink } },
];
