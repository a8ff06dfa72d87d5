// The served OpenAPI document passes a strict validator (issue 27): every $ref resolves, `servers` is given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { OPENAPI_PATH, allCalls } from '@sentra/contracts';
import { startGateway, type Running } from './harness.js';

let gw: Running;
let served: OpenAPIV3_1.Document;
beforeAll(async () => {
  gw = await startGateway();
  const r = await fetch(`${gw.url}${OPENAPI_PATH}`);
  expect(r.status).toBe(200);
  served = (await r.json()) as OpenAPIV3_1.Document;
});
afterAll(async () => gw.stop());

describe(`GET ${OPENAPI_PATH}`, () => {
  it('is a valid OpenAPI 3.1 document for swagger-parser (schema and every $ref)', async () => {
    // validate() dereferences in place: hand it a copy so the other checks see the document as served.
    await expect(SwaggerParser.validate(structuredClone(served))).resolves.toBeDefined();
  });

  it('has only references that point into components/schemas, each of them defined', () => {
    const refs = JSON.stringify(served).match(/"\$ref":"[^"]*"/g) ?? [];
    for (const ref of new Set(refs)) {
      const target = /"\$ref":"#\/components\/schemas\/([^"]+)"/.exec(ref);
      expect(target, ref).not.toBeNull();
      expect(served.components?.schemas?.[target![1]], ref).toBeDefined();
    }
    expect(JSON.stringify(served)).not.toContain('$defs');
  });

  it('requires in a body only properties the body has (path parameters are not part of it)', () => {
    for (const [path, ops] of Object.entries(served.paths ?? {})) {
      for (const [method, op] of Object.entries(ops ?? {})) {
        const body = (op as OpenAPIV3_1.OperationObject).requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
        const schema = body?.content['application/json']?.schema as OpenAPIV3_1.SchemaObject | undefined;
        for (const name of schema?.required ?? [])
          expect(schema?.properties, `${method} ${path} requires ${name}`).toHaveProperty(name);
      }
    }
  });

  it('names a server, relative to where the document is served', () => {
    expect(served.servers?.map((s) => s.url)).toEqual(['/']);
  });

  it('documents every call of the route table', () => {
    for (const def of allCalls()) {
      expect(served.paths?.[def.path]?.[def.method.toLowerCase() as 'get'], `${def.method} ${def.path}`).toBeDefined();
    }
  });
});
