/** One size the emulated service offers, as the public API's `GET /v1/shapes` lists it. */
export interface EmulatedShape {
  readonly id: string;
  readonly vcpu: number;
  readonly memMib: number;
}

/**
 * The shapes the emulated service offers by default: CreateOS's published catalog. A create
 * with another shape is refused with 400, as the service refuses it.
 */
export const DEFAULT_SHAPES: readonly EmulatedShape[] = [
  { id: "s-0.25vcpu-512mb", vcpu: 0.25, memMib: 512 },
  { id: "s-0.5vcpu-1gb", vcpu: 0.5, memMib: 1024 },
  { id: "s-1vcpu-256mb", vcpu: 1, memMib: 256 },
  { id: "s-1vcpu-1gb", vcpu: 1, memMib: 1024 },
  { id: "s-1vcpu-2gb", vcpu: 1, memMib: 2048 },
  { id: "s-2vcpu-2gb", vcpu: 2, memMib: 2048 },
  { id: "s-2vcpu-4gb", vcpu: 2, memMib: 4096 },
  { id: "s-4vcpu-4gb", vcpu: 4, memMib: 4096 },
  { id: "s-4vcpu-8gb", vcpu: 4, memMib: 8192 },
  { id: "s-8vcpu-8gb", vcpu: 8, memMib: 8192 },
  { id: "s-8vcpu-16gb", vcpu: 8, memMib: 16384 },
];
