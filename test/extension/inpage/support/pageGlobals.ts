/**
 * The hook's modules capture browser globals when they load. Node has most of them (EventTarget, Event, MessagePort,
 * MessageEvent, CustomEvent); these stand in for the rest. Import this first in a test of a hook module.
 */
const scope = globalThis as Record<string, unknown>
scope.window ??= globalThis
scope.document ??= {}
scope.MutationObserver ??= class {
  observe() {}
  disconnect() {}
}
