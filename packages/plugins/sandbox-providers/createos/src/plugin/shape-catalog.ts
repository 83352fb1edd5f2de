/**
 * CreateOS's published shape catalog (`GET /v1/shapes` of the public API, as upstream's
 * manifest lists it). A shape outside it is only warned about when an environment is saved:
 * the catalog grows on the provider's side, and the provider refuses an unknown shape anyway.
 */
export const SHAPE_CATALOG = [
  "s-0.25vcpu-512mb",
  "s-0.5vcpu-1gb",
  "s-1vcpu-256mb",
  "s-1vcpu-1gb",
  "s-1vcpu-2gb",
  "s-2vcpu-2gb",
  "s-2vcpu-4gb",
  "s-4vcpu-4gb",
  "s-4vcpu-8gb",
  "s-8vcpu-8gb",
  "s-8vcpu-16gb",
] as const;

export function isCatalogShape(shape: string): boolean {
  return (SHAPE_CATALOG as readonly string[]).includes(shape);
}
