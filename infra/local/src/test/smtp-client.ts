import { createConnection } from 'node:net';

/**
 * A minimal SMTP client (RFC 5321): EHLO, MAIL, RCPT, DATA, QUIT, each waiting for its reply
 * code. Enough to test the sink without depending on nodemailer.
 */
export async function sendRawMail(port: number, from: string, to: string, message: string): Promise<void> {
  const socket = createConnection({ port, host: '127.0.0.1' });
  let buffer = '';
  const waiters: ((line: string) => void)[] = [];
  socket.on('data', (chunk) => {
    buffer += chunk.toString();
    // A reply ends with a line "NNN text" (a dash after the code means more lines follow).
    for (let match = /^(\d{3}) .*\r\n/m.exec(buffer); match; match = /^(\d{3}) .*\r\n/m.exec(buffer)) {
      const end = match.index + match[0].length;
      buffer = buffer.slice(end);
      waiters.shift()?.(match[0]);
    }
  });
  const reply = (expected: string) =>
    new Promise<void>((resolve, reject) => {
      waiters.push((line) =>
        line.startsWith(expected) ? resolve() : reject(new Error(`SMTP: ${line.trim()}`)),
      );
    });
  const send = async (line: string, expected: string) => {
    const answered = reply(expected);
    socket.write(`${line}\r\n`);
    await answered;
  };
  await reply('220');
  await send('EHLO test.local', '250');
  await send(`MAIL FROM:<${from}>`, '250');
  await send(`RCPT TO:<${to}>`, '250');
  await send('DATA', '354');
  // Dot-stuffing (RFC 5321 4.5.2), then the terminating lone dot.
  await send(`${message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..')}\r\n.`, '250');
  await send('QUIT', '221');
  socket.destroy();
}
