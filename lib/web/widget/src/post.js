/**
 * POSTs JSON as text/plain: a "simple" cross-origin request, so the browser sends no preflight (docs/widget.md).
 * Resolves to the body, or throws `{ code, message }`.
 */
export async function post(base, path, body) {
  let response;
  try {
    response = await fetch(`${base}${path}`, { method: 'POST', mode: 'cors', credentials: 'omit', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
  } catch {
    throw { code: 'network' };
  }
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw { code: json.error?.code || 'unavailable', message: json.error?.message, waitSeconds: json.error?.details?.[0]?.retryAfterSeconds };
  return json;
}
