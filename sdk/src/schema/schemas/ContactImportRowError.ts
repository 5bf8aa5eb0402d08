// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

export type ContactImportRowError = {
    row: number;
    column: string;
    value: string;
    message: string;
};
