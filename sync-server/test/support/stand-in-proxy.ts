// A reverse proxy in front of a test server, as nginx would sit in front of a real one, that can be told
// to answer some requests itself with its own HTML 404 page (what a proxy sends for a path it can't route).
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** "METHOD /path" of the requests answered with the proxy's HTML 404 instead of forwarded. */
  htmlNotFound: Set<string>;
  close(): Promise<void>;
}

export async function startStandInProxy(targetUrl: string): Promise<StandInProxy> {
  const target = new URL(targetUrl);
  const htmlNotFound = new Set<string>();
  const server = createServer((req, res) => {
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
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    htmlNotFound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
