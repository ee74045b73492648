export interface Answer {
  status: number;
  body: unknown;
}

/** A request with a JSON body (or form-encoded when `form` is set), answered as parsed JSON. */
export async function call(
  url: string,
  init: { method?: string; body?: unknown; form?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (init.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
