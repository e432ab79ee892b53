export { CookieJar } from './cookie-jar.js';
export { FormBrowser, type BrowserResponse, type Fields } from './form-browser.js';
export { pageText, parseForms, type HtmlForm } from './html-forms.js';
