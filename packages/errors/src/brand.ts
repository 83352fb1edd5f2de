/**
 * Brands make `instanceof` work across copies of this package (two versions in one
 * `node_modules`, or the ESM and the CJS build loaded side by side): `Symbol.for`
 * returns the same symbol in every copy, so a brand set by one copy is seen by all.
 */
export const ERROR_BRAND: unique symbol = Symbol.for("paperclipai.error") as never;

const CLASS_BRAND_KEY: unique symbol = Symbol.for("paperclipai.error.classBrand") as never;

type BrandableClass = abstract new (...args: never[]) => Error;

export function classBrandSymbol(className: string): symbol {
  return Symbol.for(`paperclipai.error.${className}`);
}

/** Gives a class its brand and a stable `name` (the class name, immune to minification). */
export function brandClass(target: BrandableClass, className: string): void {
  Object.defineProperty(target, CLASS_BRAND_KEY, { value: classBrandSymbol(className) });
  Object.defineProperty(target.prototype, "name", {
    value: className,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

function ownClassBrand(target: unknown): symbol | undefined {
  if (typeof target !== "function" || !Object.hasOwn(target, CLASS_BRAND_KEY)) return undefined;
  return (target as unknown as Record<symbol, symbol>)[CLASS_BRAND_KEY];
}

/** Marks an instance with the brand of every class in its constructor chain. */
export function brandInstance(instance: Error, leafClass: unknown): void {
  Object.defineProperty(instance, ERROR_BRAND, { value: true });
  for (let current = leafClass; typeof current === "function"; current = Object.getPrototypeOf(current)) {
    const brand = ownClassBrand(current);
    if (brand) Object.defineProperty(instance, brand, { value: true });
  }
}

/**
 * Never throws: `PaperclipError.is(error)` runs in `catch` blocks, on whatever was thrown, and a
 * Proxy or a getter that throws would otherwise replace the caught error with its own.
 */
export function hasBrand(value: unknown, brand: symbol): boolean {
  try {
    return (
      (typeof value === "object" || typeof value === "function") &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true
    );
  } catch {
    return false;
  }
}

/** `instanceof` for a branded class: the brand first, then the ordinary prototype chain. Never throws. */
export function isInstanceOfBrandedClass(target: unknown, value: unknown): boolean {
  const brand = ownClassBrand(target);
  if (brand && hasBrand(value, brand)) return true;
  try {
    return typeof target === "function" && Function.prototype[Symbol.hasInstance].call(target, value);
  } catch {
    return false;
  }
}
