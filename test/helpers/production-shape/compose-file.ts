/**
 * docker-compose.yml (and its overlays) read as data, for the unit test that checks the file against the code and for
 * the production-shape run, which checks that what it starts is the software the file pins (the image tags).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { projectRoot } from '../../../src/project-root.js';

export interface ComposeService {
  image?: string;
  build?: { dockerfile_inline?: string };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] | string };
  volumes?: string[];
  ports?: string[];
  user?: string;
  depends_on?: Record<string, { condition: string }> | string[];
  restart?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** A compose file of the project root (`docker-compose.yml` unless named), merge keys (`<<`) resolved. */
export function loadCompose(file = 'docker-compose.yml'): ComposeFile {
  return yaml.load(readFileSync(path.join(projectRoot(), file), 'utf8')) as ComposeFile;
}

/** The image `name:tag` of a service of docker-compose.yml, split; throws when the service has no tagged image. */
export function composeImage(service: string, compose: ComposeFile = loadCompose()): { name: string; tag: string } {
  const image = compose.services[service]?.image;
  const m = image ? /^([^:@\s]+):([^:@\s]+)$/.exec(image) : null;
  if (!m) throw new Error(`docker-compose.yml: service ${service} has no image with a tag (${image ?? 'none'})`);
  return { name: m[1]!, tag: m[2]! };
}

/** The first number of a version (`15.8 (Debian 15.8-0+deb12u1)` → 15, `16-bookworm` → 16). */
export function majorVersion(version: string): number {
  const m = /^v?(\d+)/.exec(version.trim());
  if (!m) throw new Error(`no major version in ${JSON.stringify(version)}`);
  return Number(m[1]);
}
