import http from 'node:http';
import type { Answer, FuzzRequest } from './fuzz-cases.js';

/**
 * Sends a fuzz request exactly as built (raw target, no path normalisation, any method) and
 * reads the whole answer. A connection the server drops without answering is status 0.
 */
export function send(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path,
      headers: {
        ...request.headers,
        ...(request.body && { 'content-length': String(request.body.length) }),
      },
      timeout: 30_000,
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, contentType: '', body: String(error) }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (error) => resolve({ status: 0, contentType: '', body: String(error) }));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.end(request.body);
  });
}
