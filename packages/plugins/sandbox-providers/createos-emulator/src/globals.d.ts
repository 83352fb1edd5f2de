/** The package version, inlined at build time from package.json. */
declare const __PACKAGE_VERSION__: string;
