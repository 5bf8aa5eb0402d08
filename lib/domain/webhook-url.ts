import { ValidationError } from './errors.js';
import { isAllowedHost, refuseToolUrl } from './ssrf.js';

/*
 * Kept apart from webhook.ts: every handler that publishes an event reaches webhook.ts (through the webhook
 * store), and the SSRF guard's ipaddr.js would ride along into its bundle; only saving an endpoint checks a URL.
 */

/** What a policy check needs: TOOL_ALLOWED_HOSTS (local development and tests only), as for HTTP tools. */
export interface WebhookUrlPolicy {
  readonly allowedHosts: readonly string[];
}

/**
 * Checks an endpoint URL as a tool URL is checked at save time (lib/domain/ssrf.ts): http(s) only, no literal
 * private, loopback, link-local or metadata address, no internal host name. Names are resolved and checked
 * again at every delivery. Endpoints must use https: plain http only reaches a host on TOOL_ALLOWED_HOSTS, the
 * same exemption (local development and tests, empty in production) that lets a tool reach a loopback host.
 */
export function assertWebhookUrl(text: string, policy: WebhookUrlPolicy): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError([{ field: 'url', message: 'an absolute https URL, for example https://example.com/hooks' }]);
  }
  const refused = refuseToolUrl(url, policy.allowedHosts);
  if (refused) throw new ValidationError([{ field: 'url', message: refused }]);
  if (url.protocol === 'http:' && !isAllowedHost(url, policy.allowedHosts)) {
    throw new ValidationError([{ field: 'url', message: 'must use https (plain http is refused: signed events would travel in clear text)' }]);
  }
  if (url.username || url.password) throw new ValidationError([{ field: 'url', message: 'credentials in the URL are not allowed; verify our signature instead' }]);
  return url.toString();
}
