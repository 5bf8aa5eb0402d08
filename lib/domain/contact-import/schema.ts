/**
 * The request and response shapes of a contact import. Kept apart from the parsers so the route table
 * (read by every handler and the CDK stack) does not pull the CSV and spreadsheet readers in.
 */
import * as z from 'zod';
import { isPhoneCountry } from '../phone.js';

/** ISO 3166-1 alpha-2 code that the phone-number metadata knows; '' counts as absent (HTML forms send it). */
const DefaultCountry = z
  .string()
  .trim()
  .toUpperCase()
  .refine((c) => c === '' || isPhoneCountry(c), 'an ISO 3166-1 alpha-2 country code such as US')
  .transform((c) => c || undefined);

/**
 * The form's `workspaceId`: required, as API_SPEC.md marks it (unlike the JSON bodies, where the key's
 * workspace is meant when it is left out); it must be the API key's workspace (403 otherwise).
 */
const FormWorkspaceId = z
  .string({ error: (issue) => (issue.input === undefined ? 'the form field "workspaceId" is required: the API key\'s workspace' : undefined) })
  .min(1)
  .max(64)
  .describe("Required: the API key's workspace (403 for another one).");

/** The text fields of the upload form (the file part is checked by the service). */
export const ContactImportFields = z.strictObject({
  workspaceId: FormWorkspaceId,
  defaultCountry: DefaultCountry.optional(),
});
export type ContactImportFields = z.infer<typeof ContactImportFields>;

/** The whole multipart form as the OpenAPI document shows it. */
export const ContactImportForm = z
  .object({
    file: z.file().describe('CSV (UTF-8, header row) or .xlsx; at most 4 MiB'),
    workspaceId: FormWorkspaceId,
    defaultCountry: z.string().optional().describe('ISO 3166-1 alpha-2 country for numbers written without +'),
  })
  .meta({ id: 'ContactImportForm' });

export const ContactImportRowError = z
  .object({ row: z.number().int(), column: z.string(), value: z.string(), message: z.string() })
  .meta({ id: 'ContactImportRowError' });

/** The answer of an import: imported + skipped + errors.length = data rows. */
export const ContactImportResult = z
  .object({
    imported: z.number().int(),
    skipped: z.number().int(),
    errors: z.array(ContactImportRowError),
    importId: z.string().optional().describe('names the contacts this upload wrote: a campaign can call them (docs/campaigns.md)'),
  })
  .meta({ id: 'ContactImportResult' });
export type ContactImportResult = z.infer<typeof ContactImportResult>;
