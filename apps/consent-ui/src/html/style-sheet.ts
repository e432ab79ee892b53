import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The hosted pages' stylesheet (style.css beside this module, copied into dist by the build). */
export interface StyleSheet {
  css: string;
  /** A digest of the content, put in the link's query so a cached copy never outlives a change. */
  version: string;
}

export function loadStyleSheet(): StyleSheet {
  const css = readFileSync(new URL('./style.css', import.meta.url), 'utf8');
  return { css, version: createHash('sha256').update(css).digest('hex').slice(0, 16) };
}
