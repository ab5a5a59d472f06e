// A real HTTP server on 127.0.0.1 standing in for a store: tests set `reply` to answer the way
// the store's documentation says, and read `requests` to see what the verifier sent.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** 'hang' never answers, so the verifier's timeout has to fire. */
export type Reply = { status?: number; json?: unknown; text?: string; contentType?: string } | 'hang';

export interface StoreServer {
  url: string;
  requests: Received[];
  reply: (request: Received) => Reply | Promise<Reply>;
  close(): Promise<void>;
}

export async function startStoreServer(): Promise<StoreServer> {
  const state: StoreServer = {
    url: '',
    requests: [],
    reply: () => ({ status: 500, text: 'no reply set' }),
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      state.requests.push(received);
      void Promise.resolve(state.reply(received)).then((reply) => {
        if (reply === 'hang') return;
        const text = reply.json === undefined ? (reply.text ?? '') : JSON.stringify(reply.json);
        const contentType = reply.contentType ?? (reply.json === undefined ? 'text/html' : 'application/json');
        res.writeHead(reply.status ?? 200, { 'content-type': contentType }).end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      // Hanging requests keep their sockets open; close them so the server can stop.
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
