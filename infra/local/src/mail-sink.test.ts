import { afterEach, describe, expect, it } from 'vitest';
import { startMailSink, type LoggedMail, type MailSink } from './mail-sink.js';
import { freePort } from './ports.js';
import { sendRawMail } from './test/smtp-client.js';

describe('mail sink', () => {
  let sink: MailSink | undefined;
  afterEach(async () => sink?.close());

  it('logs recipient, subject and the links of the text part', async () => {
    const lines: string[] = [];
    const received: LoggedMail[] = [];
    const port = await freePort();
    sink = await startMailSink({
      port,
      sink: (source, line) => lines.push(`${source} | ${line}`),
      onMessage: (mail) => received.push(mail),
    });
    expect(sink.url).toBe(`smtp://127.0.0.1:${port}`);

    const link = `http://localhost:3000/auth/verify?token=${'cd'.repeat(32)}`;
    const encoded = link.replace(/=/g, '=3D');
    const message = [
      'From: no-reply@localhost',
      'To: bob@example.com',
      'Subject: Verify your email',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      `Welcome! ${encoded.slice(0, 50)}=`,
      `${encoded.slice(50)}`,
      '.leading dot survives dot-stuffing',
    ].join('\r\n');
    await sendRawMail(port, 'no-reply@localhost', 'bob@example.com', message);

    expect(received).toEqual([
      { from: 'no-reply@localhost', to: ['bob@example.com'], subject: 'Verify your email', links: [link] },
    ]);
    expect(lines).toEqual(['mail | message to bob@example.com: Verify your email', `mail |   link: ${link}`]);
  });
});
