/** A strict reader of the Prometheus text exposition format (0.0.4), for asserting on /metrics. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  types: Map<string, string>;
  help: Map<string, string>;
  /** The samples of `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( \d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

/** Parses the text; throws naming the first line that is not valid. */
export function parsePrometheus(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      const [name, ...rest] = line.slice(7).split(' ');
      help.set(name!, rest.join(' '));
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type!))
        throw new Error(`line ${index + 1}: unknown type "${type}"`);
      types.set(name!, type!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not a sample: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[3] ?? '';
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const start = LABEL.lastIndex;
      const label = LABEL.exec(body);
      if (!label || label.index !== start) throw new Error(`line ${index + 1}: bad labels: ${body}`);
      labels[label[1]!] = label[2]!;
    }
    const raw = match[4]!;
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    if (Number.isNaN(value) && raw !== 'NaN') throw new Error(`line ${index + 1}: bad value ${raw}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return {
    samples,
    types,
    help,
    find: (name, want = {}) =>
      samples.filter((s) => s.name === name && Object.entries(want).every(([k, v]) => s.labels[k] === v)),
  };
}
