// Response serialization of the JSON groups (REST, Custom, activity): a route's zod response
// schema becomes a JSON Schema once, and fast-json-stringify compiles it into a function that
// writes the answer by its known shape instead of walking it as JSON.stringify does.
//
// Answers must stay byte-identical to JSON.stringify's (tests compare bodies, shipped apps parse
// them), so the JSON Schema is reshaped for the serializer only (the OpenAPI document keeps the
// zod schema's own, through fastify-type-provider-zod):
// - no `required`: fast-json-stringify writes required properties first and throws on an absent
//   one; without it properties come in schema order, an undefined one left out, as JSON.stringify
//   does. The schemas therefore list properties in the presenters' key order;
// - `integer` is written as `number`: under `integer` a fraction would be truncated (a number
//   is written as JSON.stringify writes it, Infinity as null; NaN, which no answer holds, throws);
// - no `format`, `const`, `default`, `enum`: a format changes how a Date is written, a const is
//   written whatever the value is, a default fills an absent property;
// - a nullable value (`anyOf` X | null, `type: [X, 'null']`) is X with `nullable: true`;
// - a Date is a string: written, as by JSON.stringify, as its toISOString() in quotes;
// - a plainText() string is written in quotes without escaping (see plainText);
// - any other union, an intersection, a reference and whatever else zod cannot represent
//   becomes `{}`: that value is written by JSON.stringify, identical, only not faster.
// A property the schema does not list is dropped: every key a presenter emits must be listed
// (an open object is written as `{}`, whole).
//
// Under vitest every answer is also written by JSON.stringify and compared, so a schema that
// would change a byte fails every test that reaches its route.
import type { FastifySerializerCompiler } from 'fastify';
import build from 'fast-json-stringify';
import { z } from 'zod';
import { isPlainText } from '../presenters/plain-text.ts';

type JsonSchema = Record<string, unknown>;
type Serialize = (data: unknown) => string;

const CHECK_AGAINST_JSON_STRINGIFY = process.env['VITEST'] !== undefined;

/** Compiled serializers by response schema: a schema is shared by every app built in the process. */
const compiled = new WeakMap<object, Serialize>();

export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url, httpStatus }) => {
  const serialize = serializerFor(schema);
  if (!CHECK_AGAINST_JSON_STRINGIFY) return serialize;
  return (data) => {
    const written = serialize(data);
    const expected = JSON.stringify(data);
    if (written !== expected) {
      throw new Error(`The ${httpStatus} response schema of ${method} ${url} changes the answer:\n  schema:         ${written}\n  JSON.stringify: ${expected}`);
    }
    return written;
  };
};

/** The compiled serializer of a zod schema (or of a JSON Schema, taken as it is). */
export function serializerFor(schema: unknown): Serialize {
  if (typeof schema !== 'object' || schema === null) return JSON.stringify;
  let serialize = compiled.get(schema);
  if (!serialize) {
    const json = schema instanceof z.core.$ZodType ? toJsonSchema(schema) : schema;
    serialize = build(forSerializer(json)) as Serialize;
    compiled.set(schema, serialize);
  }
  return serialize;
}

/** The zod schema's output as JSON Schema, a Date as a string (fast-json-stringify writes its toISOString()). */
function toJsonSchema(schema: z.core.$ZodType): unknown {
  return z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-7',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === 'date') jsonSchema.type = 'string';
      if (isPlainText(zodSchema)) jsonSchema.format = PLAIN;
    },
  });
}

/** The JSON Schema reshaped so that fast-json-stringify writes what JSON.stringify writes (see the top). */
export function forSerializer(node: unknown): JsonSchema {
  if (typeof node !== 'object' || node === null) return {};
  const schema = node as JsonSchema;
  const union = (schema['anyOf'] ?? schema['oneOf']) as unknown[] | undefined;
  if (union) {
    const values = union.filter((option) => !isNull(option));
    return values.length === 1 && values.length < union.length ? nullable(forSerializer(values[0])) : {};
  }
  if (schema['allOf'] || schema['$ref'] || schema['not'] || schema['if']) return {};
  const type = schema['type'];
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    if (types.length !== 1) return {};
    const single = forSerializer({ ...schema, type: types[0] });
    return types.length < type.length ? nullable(single) : single;
  }
  switch (type) {
    case 'string':
      return schema['format'] === PLAIN ? { type, format: PLAIN } : { type };
    case 'boolean':
    case 'number':
      return { type };
    case 'integer':
      return { type: 'number' };
    case 'array': {
      const items = schema['items'];
      return Array.isArray(items) ? {} : { type: 'array', items: forSerializer(items) };
    }
    case 'object':
      return objectSchema(schema);
    default:
      return {};
  }
}

function objectSchema(schema: JsonSchema): JsonSchema {
  const declared = Object.entries((schema['properties'] ?? {}) as Record<string, unknown>);
  const extra = schema['additionalProperties'];
  const open = extra !== undefined && extra !== false;
  // An open object (a record, or declared properties plus others) is JSON.stringify's: it keeps the
  // object's own key order, where fast-json-stringify would write declared properties first.
  if (schema['patternProperties'] || open) return {};
  const properties = Object.fromEntries(declared.map(([key, value]) => [key, forSerializer(value)]));
  return { type: 'object', properties, additionalProperties: false };
}

/** fast-json-stringify's format for a string written in quotes as it is. */
const PLAIN = 'unsafe';

const isNull = (option: unknown) => typeof option === 'object' && option !== null && (option as JsonSchema)['type'] === 'null';

const nullable = (schema: JsonSchema): JsonSchema => (Object.keys(schema).length === 0 ? schema : { ...schema, nullable: true });
