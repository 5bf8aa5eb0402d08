/** The phone-number checks the pages make before asking the API (which has the last word). */

/**
 * Whether `text` looks like an E.164 number: `+`, then 8 to 15 digits, the first not 0 (spaces, dots, dashes
 * and brackets aside). The API checks the number against each country's plan and says so in its answer.
 */
export function looksLikeE164(text: string): boolean {
  return /^\+[1-9]\d{7,14}$/.test(text.replace(/[\s().-]/g, ''));
}
