/**
 * The shapes the emulated service offers by default: CreateOS's published catalog
 * (`GET /v1/shapes` of the public API). A create with another shape is refused with 400, as
 * the service refuses it.
 */
export const DEFAULT_SHAPES: readonly string[] = [
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
];
