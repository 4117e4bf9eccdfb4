/** Provided by build-plugins/bundledData.ts: fetches the lists the build took out of the worker's script. */
declare module 'virtual:bundled-data' {
  /** Fetches every bundled data file once, in parallel; resolves when all are read (a failed fetch is retried). */
  export function loadBundledData(): Promise<void>
}
