import { Metadata, parsePhoneNumberWithError, type CountryCode } from 'libphonenumber-js';

export interface NormalizedPhone {
  /** E.164, for example +14155552671. */
  readonly e164: string;
  /** ISO 3166-1 alpha-2 region the number belongs to, for example US. */
  readonly region: string;
}

const FORMATTED_NUMBER = /^\+?[0-9\s().\-/]{3,40}$/;
const callingCodeMainCountry = (code: string): string | undefined =>
  (new Metadata() as unknown as { metadata: { country_calling_codes: Record<string, string[]> } }).metadata
    .country_calling_codes[code]?.[0];

/**
 * Normalizes a phone number to E.164 and derives its region.
 *
 * We accept numbers that are *possible* for their country code (right length), not only numbers in ranges
 * known to be assigned: test ranges such as +1 555 are what developers type, and an outbound call to an
 * unassigned range fails at the carrier with a clear status anyway. Without `defaultCountry` the number must
 * start with `+`. Returns undefined when the input is not a phone number.
 */
export function normalizePhone(input: string, defaultCountry?: string): NormalizedPhone | undefined {
  const text = input.trim();
  if (!FORMATTED_NUMBER.test(text)) return undefined;
  if (!text.startsWith('+') && !defaultCountry) return undefined;
  try {
    const parsed = parsePhoneNumberWithError(text, defaultCountry as CountryCode | undefined);
    if (!parsed.isPossible()) return undefined;
    const region = parsed.country ?? callingCodeMainCountry(parsed.countryCallingCode);
    if (!region) return undefined;
    return { e164: parsed.number, region };
  } catch {
    return undefined;
  }
}

/** Digits only, used to match phone searches typed with or without punctuation. */
export const phoneDigits = (text: string): string => text.replace(/\D+/g, '');
