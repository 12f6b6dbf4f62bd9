/** Typed arrays as base64 text inside the saved index's JSON: compact, and decoded far faster than number arrays are parsed. */

export function base64(array: Int32Array | Float64Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

/** A fresh, aligned buffer (a Buffer decoded from base64 may sit unaligned in a shared pool). */
export function fromBase64(text: string): ArrayBuffer {
  const bytes = Buffer.from(text, 'base64');
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return copy;
}
