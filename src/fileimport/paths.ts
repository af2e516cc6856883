/** A file name as one safe path segment: the base name only, no control or path characters, never empty. */
export function safeSegment(name: string): string {
  const base = name.replace(/\\/g, '/').split('/').pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f<>:"|?*#%[\]()]/g, '')
    .replace(/\s+/g, '-')
    .replace(/^\.+/, '');
  return clean || 'file';
}

/** `path`, or `path` with `-2`, `-3`, … before its extension, whichever is not taken yet (then taken). */
export function uniquePath(path: string, taken: Set<string>): string {
  let candidate = path;
  const dot = path.lastIndexOf('.');
  const [stem, ext] = dot > path.lastIndexOf('/') ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
