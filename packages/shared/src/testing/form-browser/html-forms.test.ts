import { describe, expect, it } from 'vitest';
import { pageText, parseForms } from './html-forms.js';

const PAGE = `<!doctype html><main>
  <h1>Sign in to <strong>Example &amp; Co</strong></h1>
  <form method="post" action="/pages/sign-in?x=1&amp;y=2">
    <input type="hidden" name="handle" value="h&quot;1">
    <input type=hidden name='csrf' value='c2'>
    <input name="email" type="email" autocomplete="username">
    <input name="password" type="password">
    <input type="hidden" value="unnamed">
    <button type="submit" name="decision" value="allow"><span>Allow</span> access</button>
  </form>
  <form><button>Search</button></form>
</main>`;

describe('parseForms', () => {
  it('reads each form as a browser would submit it: action resolved, hidden fields, inputs and buttons', () => {
    expect(parseForms(PAGE, 'https://id.example/pages/start')).toEqual([
      {
        action: 'https://id.example/pages/sign-in?x=1&y=2',
        method: 'POST',
        hidden: [
          ['handle', 'h"1'],
          ['csrf', 'c2'],
        ],
        inputs: [
          { name: 'handle', type: 'hidden' },
          { name: 'csrf', type: 'hidden' },
          { name: 'email', type: 'email' },
          { name: 'password', type: 'password' },
        ],
        buttons: [{ name: 'decision', value: 'allow', text: 'Allow access' }],
      },
      {
        action: 'https://id.example/pages/start',
        method: 'GET',
        hidden: [],
        inputs: [],
        buttons: [{ name: undefined, value: undefined, text: 'Search' }],
      },
    ]);
  });

  it('finds no form in a page without one', () => {
    expect(parseForms('<p>Nothing here</p>', 'https://id.example/')).toEqual([]);
  });
});

describe('pageText', () => {
  it("is the text of the page's main, inline tags dropped and white space folded", () => {
    expect(pageText(PAGE)).toBe('Sign in to Example & Co Allow access Search');
  });
});
