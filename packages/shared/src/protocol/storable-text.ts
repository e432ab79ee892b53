/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * No field of the interface needs U+0000 or a lone surrogate, and neither can be stored:
 * PostgreSQL text refuses U+0000, and the driver refuses a lone surrogate in a JSON column.
 * Whoever accepts text from outside (the gateway's JSON bodies, a service parsing metadata
 * documents it fetched itself) refuses them before anything stores them.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** Does any string of a parsed JSON value, member names included, fail isStorableText? */
export function holdsUnstorableString(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (!isStorableText(next)) return true;
    } else if (Array.isArray(next)) {
      pending.push(...(next as unknown[]));
    } else if (typeof next === 'object' && next !== null) {
      for (const [name, member] of Object.entries(next)) pending.push(name, member);
    }
  }
  return false;
}
