import { newId } from '../../ids.js';

/** Ids given out during one import: an id is reused at most once, a taken or missing one is replaced by a new id. */
export class IdClaims {
  readonly used = new Set<string>();

  has(id: string): boolean {
    return this.used.has(id);
  }

  claim(id: string | undefined): string {
    const chosen = id !== undefined && !this.used.has(id) ? id : newId();
    this.used.add(chosen);
    return chosen;
  }
}
