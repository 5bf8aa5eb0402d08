/**
 * Which header names a column with a meaning. People export contacts from phones, CRMs and spreadsheets
 * that each spell the two required columns their own way ("Name", "Phone", "phone_number"), so a header is
 * compared after folding: lower case, and every character that is not a letter or a digit dropped. The
 * list is finite and documented (docs/contact-import.md, "Header row"): guessing beyond it ("first name",
 * "work phone") would silently import the wrong column.
 */

/** A column the importer reads itself; every other column is an external field. */
export type KnownColumn = 'contactName' | 'phoneNumber' | 'region';

/** The accepted spellings of each known column, written as people write them; matched folded. */
export const COLUMN_ALIASES = {
  contactName: ['contactName', 'name', 'full name', 'contact name', 'contact', 'display name'],
  phoneNumber: [
    'phoneNumber', 'phone', 'phone no', 'mobile', 'mobile number', 'mobile phone', 'cell', 'cell phone',
    'number', 'tel', 'telephone', 'telephone number',
  ],
  region: ['region'],
} as const satisfies Record<KnownColumn, readonly string[]>;

/** "Phone_Number", "phone number" and "PHONENUMBER" all fold to "phonenumber". */
export const foldHeader = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Folded alias → column. A Map, because a header is client text: looking "constructor" up in a plain
 * object would find Object's constructor.
 */
const BY_FOLDED = new Map<string, KnownColumn>(
  (Object.entries(COLUMN_ALIASES) as [KnownColumn, readonly string[]][]).flatMap(([column, aliases]) =>
    aliases.map((alias) => [foldHeader(alias), column] as const),
  ),
);

/** The known column a header names, if any. */
export const knownColumn = (header: string): KnownColumn | undefined => BY_FOLDED.get(foldHeader(header));
