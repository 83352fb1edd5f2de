/** CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): the checksum storage formats use for records. */
const TABLE = (() => {
  const table = new Int32Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
    table[byte] = crc;
  }
  return table;
})();

/**
 * Pure: the CRC-32C of `bytes`, as an unsigned 32-bit integer. Written out rather than
 * `node:zlib`'s `crc32` (a different polynomial, and loading zlib costs every runner's start
 * more than the journal's records cost to check).
 */
export function crc32c(bytes: Uint8Array): number {
  let crc = -1;
  for (let index = 0; index < bytes.length; index += 1) {
    crc = (TABLE[(crc ^ (bytes[index] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ -1) >>> 0;
}
