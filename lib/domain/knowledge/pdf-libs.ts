/**
 * PDF.js (through unpdf's serverless build) in one module, so the functions that read PDFs build it into a
 * file of their own beside their bundles and load it on the first PDF (./pdf.ts, loadPdfLibs): it is well
 * over a megabyte, and most uploads are not PDFs.
 */
export { getDocumentProxy } from 'unpdf';
