// Bounds of the extension's settings that package.json states and the code applies as well, each in
// one constant: test/unit/timeoutDefault.test.ts holds package.json equal to them. No VS Code import.

/** refactorBrowser.requestTimeout's maximum, in seconds: a longer one set by hand applies as this. */
export const MAX_TIMEOUT_SECONDS = 300;
