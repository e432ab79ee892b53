/**
 * A browser as far as the code flow tests need one: cookies (kept from every Set-Cookie,
 * sent back on every request), redirects not followed (tests assert each hop), and the
 * forms of a page read from its HTML, as a browser would submit them.
 */
export interface BrowserResponse {
  status: number;
  headers: Headers;
  /** Location resolved against the request URL, when the response is a redirect. */
  location: string | undefined;
  /** The raw Set-Cookie header values of this response. */
  setCookies: string[];
  text: string;
}

export type Fields = [name: string, value: string][];

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** RFC 6265 section 5.2-5.3, as far as one origin needs: Max-Age=0 or a past Expires deletes. */
  store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=').map((part) => part.trim());
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        return key.toLowerCase() === 'expires' && Date.parse(setting) <= Date.now();
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export class TestBrowser {
  readonly jar = new CookieJar();

  get(url: string, headers: Record<string, string> = {}): Promise<BrowserResponse> {
    return this.request('GET', url, { headers });
  }

  /** Submits `fields` as application/x-www-form-urlencoded, as an HTML form does. */
  post(url: string, fields: Fields, headers: Record<string, string> = {}): Promise<BrowserResponse> {
    return this.request('POST', url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async request(
    method: string,
    url: string,
    { headers = {}, body }: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<BrowserResponse> {
    const cookie = this.jar.header();
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...headers },
      ...(body === undefined ? {} : { body }),
    });
    const setCookies = response.headers.getSetCookie();
    this.jar.store(setCookies);
    const location = response.headers.get('location');
    return {
      status: response.status,
      headers: response.headers,
      location: location === null ? undefined : new URL(location, url).toString(),
      setCookies,
      text: await response.text(),
    };
  }
}

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
