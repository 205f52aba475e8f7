import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Status } from '@/lib/k8s/types';
import { failure } from './errors';

/** Sends a JSON body. */
export function sendJson(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  sendText(res, code, JSON.stringify(body), 'application/json', headers);
}

/** Sends a Status (error) body with its code. */
export function sendStatus(res: ServerResponse, status: Status, headers: Record<string, string> = {}): void {
  sendJson(res, status.code, status, headers);
}

/** Sends a text body. */
export function sendText(
  res: ServerResponse,
  code: number,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** 404 for paths the server does not serve. */
export function pathNotFound(): Status {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** Thrown when a request body is too large or unreadable. */
export class BodyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodyError';
  }
}

/** Reads the whole request body as text (max 16 MiB). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > 16 * 1024 * 1024) throw new BodyError('request entity too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses "90s", "30m", "1h", "250ms", "2h30m" or plain milliseconds into ms; undefined when malformed. */
export function parseDuration(text: string | null): number | undefined {
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  let rest = text;
  while (rest.length) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)/.exec(rest);
    if (!match) return undefined;
    total += Number(match[1]) * units[match[2]];
    rest = rest.slice(match[0].length);
  }
  return total;
}
