import type { PageRequest } from './shared/page-request.js';
import type { PageResult } from './shared/page-result.js';
import type { Registry } from '../registry.js';

// The shape of one hosted-page route, apart from the route table so that the
// wallet's table (wallet-routes.ts) and the main one (page-routes.ts) share it
// without importing each other.

/** A page; `segment` is the decoded last path segment of a route that takes one. */
export type PageHandler = (
  deps: Registry,
  request: PageRequest,
  segment: string | undefined,
) => Promise<PageResult>;

export interface Route {
  path: string;
  /** The route is `path/{segment}` rather than `path` itself. */
  takesSegment?: boolean;
  /** With takesSegment: the route is `path/{segment}` followed by this. */
  segmentSuffix?: string;
  /** A route that exists only while this says so: otherwise the 404 page, asked first. */
  exists?: (deps: Registry) => Promise<boolean>;
  methods: Readonly<Record<string, PageHandler>>;
}
