/** The extension settings, live from chrome.storage.local, for the popup and options pages. */
import { SETTINGS_KEY, type Settings, withDefaults } from '../../shared/settings.ts'
import { createStorageStore } from './storageStore.ts'

/** Settings merged over the defaults, so the pages always edit a complete object. */
export const settingsStore = createStorageStore<Settings>('local', SETTINGS_KEY, withDefaults)
