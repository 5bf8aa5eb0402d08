/**
 * The third-party code that only workbooks need: the spreadsheet reader and the inflater of the zip-bomb
 * guard (~65 KB minified together). The upload function's bundle does not carry it: it is built into its own
 * ES module beside that bundle (WORKBOOK_LIBS_FILE, lib/infra/entry-needs.ts) and loaded on the first
 * workbook (./xlsx.ts). Only libraries belong here: a class of ours would exist twice on Lambda (once in each
 * file), and `instanceof` on the errors the HTTP layer maps to 4xx would fail.
 */
export { readSheet } from 'read-excel-file/universal';
export { Inflate } from 'fflate';
