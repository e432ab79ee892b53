import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * The thread's program, CommonJS, evaluated by the Worker itself: a string, not a file, so it
 * runs the same from the build and under the test runner, whose TypeScript a Worker cannot
 * load. It keeps the keys it was given by id and answers each batch with its signatures in
 * order: the base64url signature, or the error one input met (the others still sign).
 * PureEdDSA takes no digest name (null), RFC 8032 section 5.1.
 */
const THREAD_PROGRAM = `
const { parentPort } = require('node:worker_threads');
const { sign } = require('node:crypto');
const keys = new Map();
parentPort.on('message', ({ batch, newKeys, keyIds, inputs }) => {
  for (const [id, key] of newKeys) keys.set(id, key);
  const signatures = inputs.map((input, index) => {
    try {
      return sign(null, Buffer.from(input, 'ascii'), keys.get(keyIds[index])).toString('base64url');
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  });
  parentPort.postMessage({ batch, signatures });
});
`;

interface SignatureRequest {
  input: string;
  key: KeyObject;
  resolve: (signature: string) => void;
  reject: (error: Error) => void;
}

interface BatchAnswer {
  batch: number;
  signatures: (string | { error: string })[];
}

/** A signature was not made: its key could not sign or be handed over, or the thread ended. */
export class SigningThreadError extends Error {
  override name = 'SigningThreadError';
}

/**
 * Ed25519 signatures made on one thread of their own (docs/performance.md #16). Signatures
 * asked for within one event-loop turn travel to the thread in one message and come back in
 * one, so a burst of tokens costs the event loop one hand-off instead of one per token, and
 * the thread signs them one after the other with the synchronous `crypto.sign`. Each call to
 * `crypto.sign` with a callback (libuv's pool) costs the event loop about three times as much
 * and wakes up to four threads per burst, which then compete with the rest of the server for
 * the cores.
 *
 * A key is handed to the thread once (a KeyObject is cloned into it, never exported) and
 * named by a number afterwards. If the thread stops or fails, the signatures in flight reject
 * with SigningThreadError (the token request fails as server_error, nothing is issued) and
 * the next signature starts a new thread. The thread is unref'd: it never keeps the process
 * alive.
 */
export class SigningThread {
  private worker: Worker | undefined;
  private readonly keyIds = new WeakMap<KeyObject, number>();
  private nextKeyId = 1;
  /** Keys the current thread holds; a new thread starts with none. */
  private keysSent = new Set<number>();
  private queue: SignatureRequest[] = [];
  private flushScheduled = false;
  private nextBatch = 1;
  private readonly inFlight = new Map<number, SignatureRequest[]>();

  /** The base64url Ed25519 signature of the ASCII `input` (a JWS signing input) under `key`. */
  sign(input: string, key: KeyObject): Promise<string> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, key, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // After this turn's I/O callbacks: every token of a batch has asked by then.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Stops the thread; signatures in flight reject. A later `sign` starts a new one. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.abandon(worker, new SigningThreadError('The signing thread was stopped'));
    await worker.terminate();
  }

  private flush(): void {
    this.flushScheduled = false;
    const requests = this.queue;
    this.queue = [];
    if (requests.length === 0) return;
    let worker: Worker;
    try {
      worker = this.thread();
    } catch (error) {
      // No thread could be started (out of memory or threads): these signatures fail, the
      // next turn tries again.
      const failure = new SigningThreadError(`No signing thread: ${(error as Error).message}`);
      for (const request of requests) request.reject(failure);
      return;
    }
    this.handOver(worker, requests);
  }

  /** One message for the burst: the keys this thread does not hold yet, then the inputs. */
  private handOver(worker: Worker, requests: SignatureRequest[]): void {
    const newKeys: [number, KeyObject][] = [];
    const keyIds = requests.map(({ key }) => {
      const id = this.keyIdOf(key);
      if (!this.keysSent.has(id)) {
        this.keysSent.add(id);
        newKeys.push([id, key]);
      }
      return id;
    });
    const batch = this.nextBatch++;
    this.inFlight.set(batch, requests);
    try {
      worker.postMessage({ batch, newKeys, keyIds, inputs: requests.map(({ input }) => input) });
    } catch (error) {
      // Nothing was sent (a key that cannot be cloned), so the thread holds none of its keys.
      this.inFlight.delete(batch);
      for (const [id] of newKeys) this.keysSent.delete(id);
      const failure = new SigningThreadError(`Signatures not handed over: ${(error as Error).message}`);
      for (const request of requests) request.reject(failure);
    }
  }

  private keyIdOf(key: KeyObject): number {
    let id = this.keyIds.get(key);
    if (id === undefined) {
      id = this.nextKeyId++;
      this.keyIds.set(key, id);
    }
    return id;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_PROGRAM, { eval: true, name: 'oauth-signing' });
    worker.unref();
    worker.on('message', (answer: BatchAnswer) => this.answer(answer));
    worker.on('error', (error) => this.abandon(worker, new SigningThreadError(error.message)));
    worker.on('exit', (code) =>
      this.abandon(worker, new SigningThreadError(`The signing thread exited with code ${code}`)),
    );
    this.worker = worker;
    this.keysSent = new Set();
    return worker;
  }

  private answer({ batch, signatures }: BatchAnswer): void {
    const requests = this.inFlight.get(batch) ?? [];
    this.inFlight.delete(batch);
    requests.forEach((request, index) => {
      const signature = signatures[index];
      if (typeof signature === 'string') request.resolve(signature);
      else request.reject(new SigningThreadError(signature?.error ?? 'No signature was returned'));
    });
  }

  /** `worker` is done with: whatever it was asked and has not answered fails. */
  private abandon(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const requests of this.inFlight.values()) for (const request of requests) request.reject(error);
    this.inFlight.clear();
  }
}
