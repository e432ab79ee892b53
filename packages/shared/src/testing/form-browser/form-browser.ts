import { CookieJar } from './cookie-jar.js';

/** One answer, read whole. */
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

/**
 * A browser as far as the hosted pages need one: cookies (kept from every Set-Cookie, sent
 * back on every request), redirects not followed (each hop is for the caller to check), and
 * forms submitted as an HTML form submits them. No JavaScript runs: the pages need none.
 */
export class FormBrowser {
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
