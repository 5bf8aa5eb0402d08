import * as z from 'zod';
import { Name, Timestamp, WorkspaceIdField } from './common.js';
import { ValidationError } from './errors.js';
import { normalizePhone } from './phone.js';

/** Custom fields: at most 50 keys of up to 64 characters; values are short scalars. */
export const ExternalFields = z
  .record(z.string().trim().min(1).max(64), z.union([z.string().max(1_000), z.number(), z.boolean()]))
  .refine((o) => Object.keys(o).length <= 50, 'at most 50 external fields');
export type ExternalFields = z.infer<typeof ExternalFields>;

const Region = z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, 'region is an ISO 3166-1 alpha-2 code such as US');
const PhoneInput = z.string().trim().min(1).max(40);

export const ContactCreate = z
  .strictObject({
    contactName: Name,
    phoneNumber: PhoneInput,
    region: Region.optional(),
    workspaceId: WorkspaceIdField,
    externalFields: ExternalFields.default({}),
  })
  .meta({ id: 'ContactCreate' });
export type ContactCreate = z.infer<typeof ContactCreate>;

/**
 * PATCH /api/contacts/{id}: JSON merge patch. `externalFields` keys set to null are removed, others are
 * set; omitted keys stay.
 */
export const ContactUpdate = z
  .strictObject({
    contactName: Name.optional(),
    phoneNumber: PhoneInput.optional(),
    region: Region.optional(),
    workspaceId: WorkspaceIdField.optional(),
    externalFields: z
      .record(z.string().trim().min(1).max(64), z.union([z.string().max(1_000), z.number(), z.boolean(), z.null()]))
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
