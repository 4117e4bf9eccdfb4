/**
 * Prometheus metrics of the scan API (GET /metrics): requests by route and status, scan latency and the node's part of
 * it, node errors.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'

export type Metrics = ReturnType<typeof createMetrics>

/** Seconds, from a cached scan to one at the scan timeout. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20]

/** A registry of its own per server, so two servers in one process (tests) never mix their counts. */
export function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'preflight_' })
  return {
    registry,
    requests: new Counter({
      name: 'preflight_http_requests_total',
      help: 'HTTP requests answered, by route and status code',
      labelNames: ['route', 'status'] as const,
      registers: [registry],
    }),
    scanSeconds: new Histogram({
      name: 'preflight_scan_duration_seconds',
      help: 'Time from a scan request to its answer, by route',
      labelNames: ['route'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    nodeSeconds: new Histogram({
      name: 'preflight_scan_node_wait_seconds',
      help:
        'Time a scan had a node call out, by chain/network, from the call being queued to its answer being read ' +
        '(scans the node failed, or that ran past the scan timeout, count in preflight_node_errors_total instead)',
      labelNames: ['network'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    nodeErrors: new Counter({
      name: 'preflight_node_errors_total',
      help: 'Scans that failed because of the node, by chain/network and kind (TIMEOUT includes scan deadlines)',
      labelNames: ['network', 'kind'] as const,
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'preflight_rate_limited_total',
      help: 'Requests refused with 429: over a key limit, or from an address with too many failed keys',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    limitStoreErrors: new Counter({
      name: 'preflight_rate_limit_store_errors_total',
      help: 'Rate-limit counts that failed (Redis unreachable); such requests are let through',
      registers: [registry],
    }),
  }
}
