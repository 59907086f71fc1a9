/**
 * Validators built from the DCSA Track & Trace 2.2 OpenAPI document. The document's event objects
 * are `$ref`s to SwaggerHub domains; they are resolved to the offline copies the simulated carriers
 * check against (test/support/dcsa-domains.ts), everything else comes from the YAML itself.
 */
import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';
import { DCSA_EXTERNAL_SCHEMAS } from '../support/dcsa-domains';
import { referenceFile } from '../support/reference-files';

export const DCSA_YAML_PATH = referenceFile('dcsa-tnt-v2.2.0.yaml');

type Json = Record<string, unknown>;

export function loadDcsaDocument(): Json {
  return yaml.load(readFileSync(DCSA_YAML_PATH, 'utf8')) as Json;
}

/** Replaces every SwaggerHub `$ref` with the matching offline schema. */
function resolveExternal(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(resolveExternal);
  if (node && typeof node === 'object') {
    const obj = node as Json;
    if (typeof obj.$ref === 'string' && obj.$ref.startsWith('https://')) {
      const name = obj.$ref.split('/').pop()!;
      const local = DCSA_EXTERNAL_SCHEMAS[name];
      if (!local) throw new Error(`no offline schema for ${obj.$ref}`);
      return local;
    }
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolveExternal(v)]));
  }
  return node;
}

export interface DcsaValidators {
  document: Json;
  eventsPage: ValidateFunction;
  singleEvent: ValidateFunction;
  error: ValidateFunction;
}

export function dcsaValidators(): DcsaValidators {
  const document = loadDcsaDocument();
  const paths = document.paths as Record<string, Record<string, Json>>;
  const get = paths['/v2/events']!.get!;
  const responses = get.responses as Record<string, Json>;
  const content = (r: Json): Json =>
    ((r.content as Json)['application/json'] as Json).schema as Json;
  const single = (paths['/v2/events/{eventID}']!.get!.responses as Record<string, Json>)['200']!;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return {
    document,
    eventsPage: ajv.compile(resolveExternal(content(responses['200']!)) as Json),
    singleEvent: ajv.compile(resolveExternal(content(single)) as Json),
    error: ajv.compile(resolveExternal(content(responses.default!)) as Json),
  };
}
