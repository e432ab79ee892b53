// A browser over fetch, as far as the hosted pages need one, for the end-to-end tests and the
// bench's UserInfo set-up (`@authz/shared/testing/form-browser`); like the rest of testing/, no
// production code imports it and the image leaves it out.
export { CookieJar } from './cookie-jar.js';
export { FormBrowser, type BrowserResponse, type Fields } from './form-browser.js';
export { pageText, parseForms, type HtmlForm } from './html-forms.js';
