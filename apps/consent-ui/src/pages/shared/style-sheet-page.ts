import type { PageResult } from './page-result.js';
import type { Registry } from '../../registry.js';

/** GET /ui/assets/style.css: the gateway lets browsers cache it (docs/hosted-pages.md #9). */
export async function showStyleSheet({ styleSheet }: Pick<Registry, 'styleSheet'>): Promise<PageResult> {
  return { status: 200, contentType: 'text/css; charset=utf-8', body: styleSheet.css, setCookies: [] };
}
