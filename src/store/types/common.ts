export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A page of a list. `next.page` is an opaque cursor to pass back as `page`. */
export interface Paginated<T> {
  items: T[];
  next?: { page: string };
}

/** A page of a list that also counts the whole list (every page): the API's `count`. */
export interface CountedPage<T> extends Paginated<T> {
  total: number;
}

export interface PageOptions {
  /** 1..1000 */
  limit: number;
  /** Opaque cursor from a previous `next.page`. */
  page?: string;
}
