import * as z from 'zod';
import { StoredNumber } from './common.js';

/** The parameters a tool's model extracts, and the JSON values they and tool bodies carry. */

export const PARAMETER_TYPES = ['string', 'number', 'integer', 'boolean'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];
/** A value a parameter can take (and a setting or argument can hold). */
export type ScalarValue = string | number | boolean;

const EnumValue = z.union([z.string().max(200), StoredNumber, z.boolean()]);

/**
 * A parameter the model extracts from the conversation. `type` and `enum` are JSON Schema's and reach the
 * model's tool schema as written; without `type` a parameter is a string (API_SPEC.md's shape), and `type`
 * is returned only when it was given.
 */
export const ToolParameter = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a parameter name is a letter or _ then letters, digits or _'),
    description: z.string().trim().min(1).max(1_000),
    required: z.boolean(),
    type: z.enum(PARAMETER_TYPES).optional(),
    enum: z.array(EnumValue).min(1).max(50).optional(),
  })
  .superRefine((param, ctx) => {
    if (!param.enum) return;
    const type = param.type ?? 'string';
    param.enum.forEach((value, i) => {
      if (!matchesType(value, type)) {
        ctx.addIssue({ code: 'custom', path: ['enum', i], message: `enum values of a ${type} parameter must be ${type}s` });
      }
    });
    if (new Set(param.enum).size !== param.enum.length) {
      ctx.addIssue({ code: 'custom', path: ['enum'], message: 'enum values must be unique' });
    }
  });
export type ToolParameter = z.infer<typeof ToolParameter>;

/** Whether a JSON value has a parameter type (an integer is a number without a fraction). */
export function matchesType(value: unknown, type: ParameterType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
  }
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

