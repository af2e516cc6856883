/**
 * Turns the output lines of a supervised child into Folio's log stream: JSON lines (the child's pino output, or a
 * plain line wrapped into one) tagged with the child's name, or pretty, prefixed lines on a terminal.
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLORS: Record<string, string> = { TRACE: '90', DEBUG: '36', INFO: '32', WARN: '33', ERROR: '31', FATAL: '35' };
const OMIT = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name', 'v', 'proc']);

export interface LineFormatter {
  (line: string, stream: 'stdout' | 'stderr'): string | null;
}

export function formatLine(name: string, options: { pretty: boolean; color: boolean }): LineFormatter {
  const width = 8;
  return (line, stream) => {
    if (line.trim() === '') return null;
    let record: Record<string, unknown> | null = null;
    if (line.startsWith('{')) {
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        record = null;
      }
    }
    if (!options.pretty) {
      const out = record ?? { level: stream === 'stderr' ? 40 : 30, time: Date.now(), msg: line };
      return JSON.stringify({ ...out, proc: name });
    }
    const prefix = `[${name}]`.padEnd(width + 2);
    const tag = options.color ? `\u001b[1m${prefix}\u001b[0m` : prefix;
    if (!record) return `${tag} ${line}`;
    const level = LEVELS[Number(record.level)] ?? String(record.level ?? 'INFO').toUpperCase();
    const time = new Date(typeof record.time === 'number' ? record.time : Date.now()).toISOString().slice(11, 23);
    const lvl = options.color ? `\u001b[${COLORS[level] ?? '0'}m${level.padEnd(5)}\u001b[0m` : level.padEnd(5);
    const rest = Object.fromEntries(Object.entries(record).filter(([k]) => !OMIT.has(k)));
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    return `${tag} ${time} ${lvl} ${String(record.msg ?? '')}${extra}`;
  };
}
