import type { jsonSchemaValidator, JsonSchemaValidatorResult } from '@modelcontextprotocol/server';

type Property = {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

/**
 * Validates elicitation answers. The spec restricts a requested schema to a flat object
 * of primitive properties (string, number, integer, boolean, string enums), so this
 * small checker replaces the Ajv instance the SDK would otherwise build for every
 * session, and keeps Ajv out of the bundled servers.
 */
export const elicitationValidator: jsonSchemaValidator = {
  getValidator<T>(schema: { properties?: Record<string, Property>; required?: string[] }) {
    const properties = (schema.properties ?? {}) as Record<string, Property>;
    const required = schema.required ?? [];
    return (input: unknown): JsonSchemaValidatorResult<T> => {
      const fail = (errorMessage: string): JsonSchemaValidatorResult<T> => ({ valid: false, data: undefined, errorMessage });
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('expected an object');
      const value = input as Record<string, unknown>;
      for (const key of required) if (value[key] === undefined) return fail(`${key} is required`);
      for (const [key, item] of Object.entries(value)) {
        const property = properties[key];
        if (!property) continue;
        const problem = checkProperty(property, item);
        if (problem) return fail(`${key} ${problem}`);
      }
      return { valid: true, data: value as T, errorMessage: undefined };
    };
  },
} as jsonSchemaValidator;

function checkProperty(property: Property, item: unknown): string | undefined {
  switch (property.type) {
    case 'boolean':
      if (typeof item !== 'boolean') return 'must be a boolean';
      break;
    case 'integer':
    case 'number':
      if (typeof item !== 'number' || Number.isNaN(item)) return 'must be a number';
      if (property.type === 'integer' && !Number.isInteger(item)) return 'must be an integer';
      if (property.minimum !== undefined && item < property.minimum) return `must be at least ${property.minimum}`;
      if (property.maximum !== undefined && item > property.maximum) return `must be at most ${property.maximum}`;
      break;
    case 'string':
      if (typeof item !== 'string') return 'must be a string';
      if (property.minLength !== undefined && item.length < property.minLength) return `must have at least ${property.minLength} characters`;
      if (property.maxLength !== undefined && item.length > property.maxLength) return `must have at most ${property.maxLength} characters`;
      break;
  }
  if (property.enum && !property.enum.includes(item)) return `must be one of ${property.enum.join(', ')}`;
  return undefined;
}
