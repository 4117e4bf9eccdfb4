/** Test helpers for talking to a running scan API server. */

export type Answer = { status: number; headers: Headers; body: unknown }

/** POSTs `body` (serialised unless already a string) to `url` with the given headers and reads the JSON answer. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
}

/** The error text of an error answer. */
export function errorOf(answer: Answer): string {
  return (answer.body as { error?: string }).error ?? ''
}
