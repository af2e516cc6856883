import type { Element } from 'hast';

/** The element's classes as strings. */
export function classNames(element: Element): string[] {
  const value = element.properties.className;
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? (value as string).split(/\s+/).filter(Boolean) : [];
}

export function hasClass(element: Element, name: string | RegExp): boolean {
  return classNames(element).some((c) => (typeof name === 'string' ? c === name : name.test(c)));
}
