/**
 * What zone.js puts in window.Promise: a class of its own (not a subclass of the native one) whose `then` settles
 * later. A wallet that builds its promise with the global Promise at call time answers with one of these.
 */
export class ZoneLikePromise<T> {
  readonly #settled: Promise<T>
  constructor(executor: (resolve: (value: T) => void, reject: (reason: unknown) => void) => void) {
    this.#settled = new Promise(executor)
  }
  // biome-ignore lint/suspicious/noThenProperty: a Promise polyfill is a thenable.
  then(onFulfilled?: (value: T) => unknown, onRejected?: (reason: unknown) => unknown): ZoneLikePromise<unknown> {
    return new ZoneLikePromise((resolve, reject) => {
      this.#settled.then(
        (value) => resolve(onFulfilled ? onFulfilled(value) : value),
        (reason) => (onRejected ? resolve(onRejected(reason)) : reject(reason)),
      )
    })
  }
}
