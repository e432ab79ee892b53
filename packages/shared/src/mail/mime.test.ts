import { describe, expect, it } from 'vitest';
import { findLinks, parseMail } from './mime.js';

const token = '0123456789abcdef'.repeat(4);

describe('parseMail', () => {
  it('joins quoted-printable soft breaks inside a link and decodes =3D', () => {
    const raw = [
      'Subject: =?UTF-8?Q?V=C3=A9rifiez_votre?= =?UTF-8?Q?_adresse?=',
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      `Open http://localhost:3000/auth/verify?token=3D${token.slice(0, 20)}=`,
      `${token.slice(20)} to confirm.`,
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('<a href="https://example.com/html-only">x</a>').toString('base64'),
      '--b1--',
      '',
    ].join('\r\n');
    const mail = parseMail(Buffer.from(raw, 'latin1'));
    expect(mail.subject).toBe('Vérifiez votre adresse');
    expect(findLinks(mail.text ?? '')).toEqual([`http://localhost:3000/auth/verify?token=${token}`]);
    expect(findLinks(mail.html ?? '')).toEqual(['https://example.com/html-only']);
  });

  it('reads a single-part base64 body and a plain subject', () => {
    const raw = `Subject: Hello\nContent-Transfer-Encoding: base64\n\n${Buffer.from('see https://a.example/x.').toString('base64')}\n`;
    const mail = parseMail(Buffer.from(raw));
    expect(mail.subject).toBe('Hello');
    expect(findLinks(mail.text ?? '')).toEqual(['https://a.example/x']);
  });

  it('finds each link once and drops trailing punctuation', () => {
    expect(findLinks('a http://x.test/a?b=1&amp;c=2, http://x.test/a?b=1&c=2 (https://y.test/z)')).toEqual([
      'http://x.test/a?b=1&c=2',
      'https://y.test/z',
    ]);
  });
});
