// OpenAPI 3.1 document generated from the route table with zod's own JSON Schema output, so integrators see every call.
import { z } from 'zod';
import { allCalls } from './http/index.js';
import { Header } from './codes.js';
import { pathParams, type CallDef } from './http/define.js';
import { SharedSchemas } from './openapi-schemas.js';

export const OPENAPI_PATH = '/service/web/openapi.json';

type Json = Record<string, unknown>;

/** A call's input or output as JSON Schema; recursive parts go to the document's shared components. */
function schemaOf(type: z.ZodType, io: 'input' | 'output', shared: SharedSchemas): Json {
  return shared.place(z.toJSONSchema(type, { io, unrepresentable: 'any', reused: 'inline', cycles: 'ref' }) as Json);
}

const envelopeFailure: Json = {
  type: 'object',
  required: ['response_result', 'message'],
  properties: {
    response_result: { type: 'integer', description: 'negative failure code' },
    message: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

function security(def: CallDef): Json[] {
  if (def.audience === 'public') return [];
  const tenant = { tenantId: [], tenantToken: [] };
  const member = { accountId: [], accountToken: [] };
  const credentials = { credentialsId: [], credentialsSecret: [] };
  return def.audience === 'tenant' ? [tenant] : [tenant, member, credentials];
}

function operation(def: CallDef, shared: SharedSchemas): Json {
  const input = schemaOf(def.input, 'input', shared);
  const props = (input.properties ?? {}) as Record<string, Json>;
  const required = new Set((input.required as string[] | undefined) ?? []);
  const inPath = pathParams(def.path);
  const parameters: Json[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: props[name] ?? { type: 'string' },
  }));
  if (def.audience !== 'public' || def.path.includes('/application/account/auth/')) {
    parameters.push({
      name: Header.appDomain,
      in: 'header',
      required: def.audience === 'member',
      schema: { type: 'string' },
    });
  }
  const op: Json = {
    summary: def.summary,
    operationId: `${def.method.toLowerCase()}${def.path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    parameters,
    security: security(def),
  };
  const rest = Object.fromEntries(Object.entries(props).filter(([k]) => !inPath.includes(k)));
  if (def.method === 'GET') {
    for (const [name, schema] of Object.entries(rest))
      parameters.push({ name, in: 'query', required: required.has(name), schema });
  } else {
    // the body is the input less its path parameters: `required` must not name what `properties` no longer has
    const body: Json = { ...input, properties: rest };
    const bodyRequired = [...required].filter((name) => name in rest);
    if (bodyRequired.length > 0) body.required = bodyRequired;
    else delete body.required;
    op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  }
  const success: Json = def.stream
    ? { description: 'streamed file', content: { [def.stream]: { schema: { type: 'string' } } } }
    : {
        description: 'success (response_result 0)',
        content: {
          'application/json': {
            schema: {
              allOf: [
                { type: 'object', required: ['response_result'], properties: { response_result: { const: 0 } } },
                schemaOf(def.output, 'output', shared),
              ],
            },
          },
        },
      };
  const documented = Object.entries(def.errors ?? {})
    .map(([code, text]) => `${code}: ${text}`)
    .join('; ');
  op.responses = {
    '200': success,
    '400': {
      description: `invalid input (-10)${documented ? `; ${documented}` : ''}`,
      content: { 'application/json': { schema: envelopeFailure } },
    },
    '401': { description: 'missing or wrong credentials' },
    '402': { description: 'tenant billing expired (-40)' },
    '403': { description: 'not granted by the role (-13)' },
    '404': { description: 'not found, or not in your application (-11)' },
  };
  op['x-timeout-ms'] = def.timeoutMs;
  if (def.access) op['x-access'] = def.access;
  return op;
}

export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  const shared = new SharedSchemas();
  for (const def of allCalls()) {
    (paths[def.path] ??= {})[def.method.toLowerCase()] = operation(def, shared);
  }
  const key = (name: string) => ({ type: 'apiKey', in: 'header', name });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sentra API',
      version: '1',
      description: 'Every answer carries response_result (0 on success). Generated from @sentra/contracts.',
    },
    // Relative: the calls are served by the same origin as this document (behind any proxy or port).
    servers: [{ url: '/', description: 'the gateway serving this document' }],
    paths,
    components: {
      schemas: shared.components,
      securitySchemes: {
        tenantId: key(Header.tenantId),
        tenantToken: key(Header.tenantToken),
        accountId: key(Header.accountId),
        accountToken: key(Header.accountToken),
        credentialsId: key(Header.credentialsId),
        credentialsSecret: key(Header.credentialsSecret),
      },
    },
  };
}
