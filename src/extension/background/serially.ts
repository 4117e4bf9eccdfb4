/** Serial task queues for the worker: storage read-modify-write steps and window syncs must not interleave. */

type Task<T> = () => Promise<T>

/** Returns a runner that starts each task after the previous one settled (a failed task does not stop the queue). */
export function serially(): <T>(task: Task<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(task: Task<T>): Promise<T> => {
    const run = tail.then(task, task)
    tail = run.catch(() => undefined)
    return run
  }
}

/** Like serially, with one queue per key; a key's queue is dropped once it runs empty, so keys do not pile up. */
export function seriallyPerKey(): <T>(key: string, task: Task<T>) => Promise<T> {
  const queues = new Map<string, Promise<unknown>>()
  return <T>(key: string, task: Task<T>): Promise<T> => {
    const run = (queues.get(key) ?? Promise.resolve()).then(task, task)
    const tail = run.catch(() => undefined)
    queues.set(key, tail)
    tail.then(() => queues.get(key) === tail && queues.delete(key))
    return run
  }
}

/** Returns a runner that runs at most `concurrency` tasks at once, in the order they were given. */
export function limited(concurrency: number): <T>(task: Task<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  const next = () => {
    if (running >= concurrency) return
    const start = waiting.shift()
    if (!start) return
    running++
    start()
  }
  return <T>(task: Task<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => {
        task()
          .then(resolve, reject)
          .finally(() => {
            running--
            next()
          })
      })
      next()
    })
}
