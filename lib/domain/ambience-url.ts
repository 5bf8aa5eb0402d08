import { isShippedSound, type AmbienceConfig } from './ambience.js';
import type { LlmEndpointPolicy } from './agent-llm.js';
import { ValidationError, type ErrorDetail } from './errors.js';
import { isAllowedHost, refuseToolUrl } from './ssrf.js';

/*
 * A custom ambience file's URL, judged at save time as a tool URL is (lib/domain/ssrf.ts): no literal private,
 * loopback, link-local or metadata address and no internal host name; the streaming service resolves the name
 * and checks every address again when it fetches the file (lib/media/custom-bed.ts). Apart from the agent
 * schema so that only the handlers that save an agent carry the SSRF policy.
 */
export function ambienceUrlProblems(text: string, policy: LlmEndpointPolicy): ErrorDetail[] {
  const field = 'ambience.sound';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [{ field, message: 'a custom sound is an absolute https URL of a WAV file, for example https://cdn.example.com/lobby.wav' }];
  }
  const refused = refuseToolUrl(url, policy.allowedHosts);
  if (refused) return [{ field, message: `is refused: ${refused}; an ambience file must be on a public host` }];
  if (url.protocol !== 'https:' && !isAllowedHost(url, policy.allowedHosts)) return [{ field, message: 'must use https' }];
  if (url.username || url.password) return [{ field, message: 'credentials in the URL are not allowed' }];
  return [];
}

/** Throws a ValidationError when the agent's custom bed URL is refused; shipped beds pass. */
export function assertAgentAmbience(ambience: AmbienceConfig | null | undefined, policy: LlmEndpointPolicy): void {
  if (!ambience || isShippedSound(ambience.sound)) return;
  const problems = ambienceUrlProblems(ambience.sound, policy);
  if (problems.length > 0) throw new ValidationError(problems);
}
