import * as z from 'zod';
import { BodyWorkspaceId, Name, StoredNumber, Timestamp, WorkspaceIdField } from './common.js';
import { ValidationError } from './errors.js';
import { normalizePhone } from './phone.js';

/** Custom fields: at most 50 keys of up to 64 characters; values are short scalars. */
export const ExternalFields = z
  .record(z.string().trim().min(1).max(64), z.union([z.string().max(1_000), StoredNumber, z.boolean()]))
  .refine((o) => Object.keys(o).length <= 50, 'at most 50 external fields');
export type ExternalFields = z.infer<typeof ExternalFields>;

/** A region is a place name ("Île-de-France", "Virginia", "US"), never a paragraph. */
export const REGION_MAX_CHARS = 100;
/** Control characters (C0, DEL, C1) and lone surrogates; whitespace ones are collapsed before this test. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

/**
 * A contact's region as people write it: free text, as the spec's "geographic region" says. Whitespace
 * runs (tabs, line breaks and U+2028 from a pasted cell included) become one space and the ends are
 * trimmed; two ASCII letters are read as a country code and upper-cased, so "us" and "US" are one region.
 * Blank is `null`: the caller derives the country from the number. Anything else unprintable, or over
 * {@link REGION_MAX_CHARS} characters, is a problem message.
 */
export function regionText(input: string): { region: string | null } | { problem: string } {
  const text = input.replace(/\s+/gu, ' ').trim();
  if (text === '') return { region: null };
  if (UNPRINTABLE.test(text)) return { problem: 'region cannot contain control characters' };
  if ([...text].length > REGION_MAX_CHARS) return { problem: `region is longer than ${REGION_MAX_CHARS} characters` };
  return { region: /^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : text };
}

/** `region` in a body: text as {@link regionText} reads it; blank means "derive it from the number". */
const Region = z
  .string()
  .transform((value, ctx) => {
    const out = regionText(value);
    if ('problem' in out) {
      ctx.addIssue({ code: 'custom', message: out.problem });
      return z.NEVER;
    }
    return out.region;
  })
  .describe(`free text up to ${REGION_MAX_CHARS} characters, for example "California" or "GB"; derived from the number (ISO 3166-1 alpha-2) when omitted or blank`);
const PhoneInput = z.string().trim().min(1).max(40);

export const ContactCreate = z
  .strictObject({
    contactName: Name,
    phoneNumber: PhoneInput,
    region: Region.optional(),
    workspaceId: BodyWorkspaceId,
    externalFields: ExternalFields.default({}),
  })
  .meta({ id: 'ContactCreate' });
export type ContactCreate = z.infer<typeof ContactCreate>;

/**
 * PATCH /api/contacts/{id}: JSON merge patch. `externalFields` keys set to null are removed, others are
 * set; omitted keys stay. `region` set to null is derived from the number again.
 */
export const ContactUpdate = z
  .strictObject({
    contactName: Name.optional(),
    phoneNumber: PhoneInput.optional(),
    // null (or blank) derives the region from the number again.
    region: Region.nullable().optional(),
    workspaceId: WorkspaceIdField.optional(),
    externalFields: z
      .record(z.string().trim().min(1).max(64), z.union([z.string().max(1_000), StoredNumber, z.boolean(), z.null()]))
      .optional(),
  })
  .meta({ id: 'ContactUpdate' });
export type ContactUpdate = z.infer<typeof ContactUpdate>;

export const ContactListQuery = z.object({ search: z.string().trim().max(200).optional() });

export interface Contact {
  _id: string;
  contactName: string;
  phoneNumber: string;
  region: string;
  workspaceId: string;
  externalFields: Record<string, string | number | boolean>;
  /** The upload that created it (a campaign can call "the rows of import X"). */
  importId?: string;
  createdAt: string;
  updatedAt: string;
}

/** E.164 for a contact's number, or a validation error naming the field. */
export function contactPhone(input: string, field = 'phoneNumber'): { e164: string; region: string } {
  const phone = normalizePhone(input);
  if (!phone) {
    throw new ValidationError([{ field, message: 'not a phone number in E.164 form, for example +14155552671' }]);
  }
  return phone;
}

export const ContactListItem = z
  .object({ _id: z.string(), contactName: z.string(), phoneNumber: z.string(), region: z.string(), workspaceId: z.string() })
  .meta({ id: 'ContactListItem' });
export const ContactView = z
  .object({
    ...ContactListItem.shape,
    externalFields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    createdAt: Timestamp,
  })
  .meta({ id: 'Contact' });
