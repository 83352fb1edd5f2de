/** The protocol name every PRP envelope carries. */
export const PRP_PROTOCOL = "paperclip.runner";

/**
 * The PRP transport versions this runner speaks. Both frame alike; the server picks the highest
 * both offer (2 for `paperclip-runnerd` and the server of 2026.916.1), and an older control plane 1.
 */
export const PRP_VERSION_MIN = 1;
export const PRP_VERSION_MAX = 2;
