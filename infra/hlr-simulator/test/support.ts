export const CREDENTIALS = 'numbers:s3cret';

export function basic(credentials: string): string {
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function call(
  url: string,
  init: { method?: string; authorization?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.authorization) headers.authorization = init.authorization;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}
