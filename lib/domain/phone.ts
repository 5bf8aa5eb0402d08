import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isSupportedCountry, Metadata, parsePhoneNumberWithError, type CountryCode, type MetadataJson } from 'libphonenumber-js/core';

/**
 * The file name of the phone metadata beside a Lambda bundle (PlatformFunction copies it into every one).
 * libphonenumber-js's metadata is 80 KB of a bundle's ~500 KB, and most requests never parse a phone number, so
 * it is read from this file on first use instead of being bundled (issue 17: bundles ≤ 500 KB; docs/benchmarks.md).
 */
export const PHONE_METADATA_FILE = 'libphonenumber-metadata.min.json';

/** Where the package keeps the same metadata (`min`: every country, no example numbers). */
export const PHONE_METADATA_PACKAGE_PATH = 'libphonenumber-js/metadata.min.json';

let metadata: MetadataJson | undefined;

/**
 * The metadata, read once: beside the bundle on Lambda; from the package when running from source (the local
 * platform, tests, the CLI), where the file beside this module does not exist. `createRequire(...).resolve`
 * is not a bundler's `require`, so esbuild leaves the package file out of the bundle.
 */
function phoneMetadata(): MetadataJson {
  if (metadata) return metadata;
  const beside = fileURLToPath(new URL(`./${PHONE_METADATA_FILE}`, import.meta.url));
  const file = existsSync(beside) ? beside : createRequire(import.meta.url).resolve(PHONE_METADATA_PACKAGE_PATH);
  metadata = JSON.parse(readFileSync(file, 'utf8')) as MetadataJson;
  return metadata;
}

/** Whether the phone metadata knows an ISO 3166-1 alpha-2 country code. */
export const isPhoneCountry = (code: string): boolean => isSupportedCountry(code as CountryCode, phoneMetadata());

export interface NormalizedPhone {
  /** E.164, for example +14155552671. */
  readonly e164: string;
  /** ISO 3166-1 alpha-2 region the number belongs to, for example US. */
  readonly region: string;
}

const FORMATTED_NUMBER = /^\+?[0-9\s().\-/]{3,40}$/;
const callingCodeMainCountry = (code: string): string | undefined =>
  (new Metadata(phoneMetadata()) as unknown as { metadata: { country_calling_codes: Record<string, string[]> } }).metadata
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
    const parsed = defaultCountry
      ? parsePhoneNumberWithError(text, defaultCountry as CountryCode, phoneMetadata())
      : parsePhoneNumberWithError(text, phoneMetadata());
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
