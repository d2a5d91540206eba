// A reverse proxy in front of a test server, as nginx would sit in front of a real one, that can be told
// to answer some requests itself: with its own HTML 404 page (what a proxy sends for a path it can't
// route), or with a server error while the server behind it is down or overloaded.
import { createServer, request as forward } from 'node:http';
import type { Socket } from 'node:net';
import { listenLocally } from '../../src/testing/listen-locally';

/** An answer the proxy gives itself instead of forwarding the request. */
export interface StandInAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface StandInProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** "METHOD /path" of the requests answered with the proxy's HTML 404 instead of forwarded. */
  htmlNotFound: Set<string>;
  /**
   * Answers by "METHOD /path" (the query included), by "METHOD /path" without its query when no key has
   * one, or by "METHOD *" for every path, given instead of forwarding.
   */
  answers: Map<string, StandInAnswer>;
  /** "METHOD /path" of every request that came in, in order, whether forwarded or answered here. */
  requests: string[];
  /** Cuts every connection open through the proxy (a long-lived stream included), as a dropped network would. */
  cutConnections(): void;
  close(): Promise<void>;
}

export async function startStandInProxy(targetUrl: string): Promise<StandInProxy> {
  const target = new URL(targetUrl);
  const htmlNotFound = new Set<string>();
  const answers = new Map<string, StandInAnswer>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const path = (req.url ?? '').split('?')[0];
    const answer =
      answers.get(`${req.method} ${req.url}`) ??
      answers.get(`${req.method} ${path}`) ??
      answers.get(`${req.method} *`);
    if (answer) {
      req.resume();
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
      return;
    }
    if (htmlNotFound.has(`${req.method} ${req.url}`)) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>404 Not Found</title><h1>404 Not Found</h1><hr><p>nginx</p>');
      return;
    }
    const upstream = forward(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    // The client went away before its answer ended (a stream closed): so does the request behind it.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.on('error', () => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const url = await listenLocally(server);
  return {
    url,
    htmlNotFound,
    answers,
    requests,
    cutConnections() {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A stream still open would hold the close for ever.
        server.closeAllConnections();
      }),
  };
}
