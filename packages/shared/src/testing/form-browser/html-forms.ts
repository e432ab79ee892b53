import type { Fields } from './form-browser.js';

/** One HTML form: where it posts, its hidden fields and its submit buttons. */
export interface HtmlForm {
  action: string;
  method: string;
  hidden: Fields;
  /** Names of every input, hidden or not (e.g. email, password). */
  inputs: { name: string; type: string }[];
  buttons: { name: string | undefined; value: string | undefined; text: string }[];
}

/** The forms of a page; `pageUrl` resolves relative actions (absent action: the page itself). */
export function parseForms(html: string, pageUrl: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map(
    ([, formAttributes = '', inner = '']) => {
      const form = attributesOf(formAttributes);
      const inputs = [...inner.matchAll(/<input\b([^>]*)>/gi)].map(([, attributes = '']) =>
        attributesOf(attributes),
      );
      const buttons = [...inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].map(
        ([, attributes = '', text = '']) => {
          const button = attributesOf(attributes);
          return {
            name: button.name,
            value: button.value,
            text: decodeEntities(text.replace(/<[^>]*>/g, '')).trim(),
          };
        },
      );
      return {
        action: new URL(form.action ?? pageUrl, pageUrl).toString(),
        method: (form.method ?? 'get').toUpperCase(),
        hidden: inputs
          .filter((input) => input.type?.toLowerCase() === 'hidden' && input.name !== undefined)
          .map((input): [string, string] => [input.name!, input.value ?? '']),
        inputs: inputs
          .filter((input) => input.name !== undefined)
          .map((input) => ({ name: input.name!, type: (input.type ?? 'text').toLowerCase() })),
        buttons,
      };
    },
  );
}

function attributesOf(source: string): Record<string, string | undefined> {
  const attributes: Record<string, string | undefined> = {};
  for (const [, name = '', doubled, single, bare] of source.matchAll(
    /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
  )) {
    const value = doubled ?? single ?? bare;
    attributes[name.toLowerCase()] = value === undefined ? '' : decodeEntities(value);
  }
  return attributes;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The text a person reads in a page's `<main>`: inline tags dropped, other tags a space,
 * entities decoded, every run of white space one space, so texts compare as one line.
 */
export function pageText(html: string): string {
  const main = /<main\b[^>]*>([\s\S]*?)<\/main>/i.exec(html)?.[1] ?? html;
  const text = main.replace(/<\/?(?:strong|em|b|i|code|span|a)\b[^>]*>/gi, '').replace(/<[^>]*>/g, ' ');
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}
