// A bounded HTTP load generator (autocannon) against loopback targets, reporting requests/s, latency percentiles and
// the CPU this process spent per request (server and generator together when they share the process: on a busy
// machine requests/s swing with the neighbours, CPU per request much less).
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p97_5_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
  requests: number;
  cpu_us_per_request: number;
}

/**
 * `paths` spreads the requests round-robin over several GET paths of `url`; `rate` holds a constant arrival rate
 * (requests/s over all connections) instead of as fast as the server answers.
 */
export async function load(opts: {
  url: string;
  headers?: Record<string, string>;
  seconds?: number;
  connections?: number;
  method?: 'GET' | 'POST';
  body?: string;
  paths?: string[];
  rate?: number;
}): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(opts.url)) throw new Error('load targets loopback only');
  const cpu = process.cpuUsage();
  const r = await autocannon({
    url: opts.url,
    headers: opts.headers,
    method: opts.method ?? 'GET',
    body: opts.body,
    duration: opts.seconds ?? 5,
    connections: opts.connections ?? 32,
    pipelining: 1,
    overallRate: opts.rate,
    requests: opts.paths?.map((path) => ({ method: 'GET' as const, path })),
  });
  const used = process.cpuUsage(cpu);
  const lat = r.latency as unknown as Record<string, number>;
  const requests = r.requests.total;
  return {
    rps: Math.round(r.requests.average),
    p50_ms: lat.p50,
    p95_ms: lat.p97_5 ?? lat.p95 ?? lat.p99,
    p97_5_ms: lat.p97_5,
    p99_ms: lat.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    requests,
    cpu_us_per_request: requests ? Math.round((used.user + used.system) / requests) : 0,
  };
}
