// Constants esbuild.config.mjs defines in each bundle, so that the code a bundle cannot use is left
// out of it. Read only from code that runs bundled (the extension), never from the unit tests.

/** True in the browser's bundle (the web worker extension host), false in the Node host's. */
declare const WEB_BUILD: boolean;

/** True in the test builds, false in the packaging build (--minify), which leaves the test API out. */
declare const TEST_API: boolean;
