/** The version of this package, as published. */
export const VERSION: string = __PACKAGE_VERSION__;
